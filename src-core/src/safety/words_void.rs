//! "The previous instructions are no longer valid" in many languages: instructions declared
//! void, and "act as if you had no rules". Words folded as `normal::fold_word` reads them;
//! a verb that is itself negated ("no longer apply", "ne s'appliquent plus") starts with its
//! negation, so that `families` does not read the negation as undoing it.

use super::families::Family;

pub(crate) const VOID: &[Family] = &[
    Family {
        verbs: "void|null|invalid|obsolete|outdated|deprecated|revoked|rescinded|cancelled|canceled|superseded|\
                overridden|suspended|lifted|expired|withdrawn|no longer apply|no longer applies|no longer valid|\
                no longer in effect|don't apply|do not apply|not binding|don't have to follow|do not have to follow|\
                don't need to follow|no longer have to follow|no need to follow|don't have to obey|do not have to obey",
        quals: "previous|prior|above|earlier|preceding|original|initial|all|your|those|these|system",
        targets: "instruction*|prompt*|rule*|directive*|guideline*|context|constraint*|programming|guardrail*|\
                  safeguard*",
        window: 6,
    },
    Family {
        verbs: "aufgehoben|ungultig|nichtig|veraltet|widerrufen|ausser kraft|nicht mehr gultig|gelten nicht mehr|\
                gilt nicht mehr|hinfallig|ersetzt|annulliert",
        quals: "vorherig*|vorig*|bisherig*|obig*|fruher*|alle|deine|ursprunglich*|alten",
        targets: "~anweisung|~instruktion|befehl*|~regeln|regel|~vorgabe|~richtlinie|~prompt",
        window: 6,
    },
    Family {
        verbs: "ne s'appliquent plus|ne sont plus valables|ne sont plus valides|ne comptent plus|ne valent plus|\
                annulees|annules|caduques|obsoletes|invalides|revoquees|remplacees|nulles|suspendues|plus en vigueur",
        quals: "precedent*|anterieur*|dessus|toutes|tous|vos|tes|initial*|original*|anciennes",
        targets: "instruction*|consigne*|regle*|directive*|indication*|prompt*",
        window: 6,
    },
    Family {
        verbs: "ya no son validas|ya no son validos|ya no valen|ya no aplican|ya no se aplican|ya no rigen|\
                no son validas|invalidas|anuladas|obsoletas|revocadas|sin efecto|reemplazadas|canceladas|nulas",
        quals: "anterior*|previa*|previo*|todas|tus|originales|iniciales|antiguas",
        targets: "instruccion*|regla*|indicacion*|directrices|norma|normas|prompt*|orden*",
        window: 6,
    },
    Family {
        verbs: "non valgono piu|non sono piu valide|non si applicano piu|annullate|obsolete|revocate|non valide|\
                sostituite|decadute|non hanno piu effetto",
        quals: "precedent*|tutte|sopra|tue|original*|iniziali|vecchie",
        targets: "istruzion*|regola|regole|indicazion*|direttiv*|prompt*",
        window: 6,
    },
    Family {
        verbs: "nao valem mais|nao sao mais validas|nao se aplicam mais|anuladas|obsoletas|revogadas|invalidas|\
                canceladas|substituidas|sem efeito",
        quals: "anterior*|previa*|todas|suas|originais|iniciais|antigas|acima",
        targets: "instruc*|regra*|diretriz*|orientac*|prompt*|ordens",
        window: 6,
    },
    Family {
        verbs: "больше не действуют|больше не действительны|не действуют|недействительны|отменены|отменяются|\
                устарели|аннулированы|утратили силу|больше не применяются|не применяются",
        quals: "предыдущ*|прежн*|ранее|вышеуказанн*|все|твои|исходн*|старые",
        targets: "инструкц*|указани*|правил*|команд*|директив*|промпт*",
        window: 6,
    },
    Family {
        verbs: "gelden niet meer|niet meer geldig|niet langer geldig|ongeldig|vervallen|ingetrokken|verouderd|\
                zijn vervangen",
        quals: "vorige|eerdere|voorgaande|bovenstaande|alle|oude|je|jouw",
        targets: "instructie*|aanwijzing*|regels|opdracht*|richtlijn*|~prompt",
        window: 6,
    },
    Family {
        verbs: "juz nie obowiazuja|nie obowiazuja|niewazne|uniewaznione|nieaktualne|odwolane|przestaly obowiazywac|\
                anulowane|zastapione",
        quals: "poprzedni*|wczesniejsz*|powyzsz*|wszystkie|twoje|stare",
        targets: "instrukcj*|polecen*|regul*|zasad*|wytyczn*|~prompt",
        window: 6,
    },
    Family {
        verbs: "gecerli degil|gecersiz|gecersizdir|iptal edildi|kaldirildi|yururlukte degil",
        quals: "onceki|yukaridaki|tum|butun|eski|senin",
        targets: "talimat*|komut*|kural*|yonerge*|emir*",
        window: 6,
    },
    Family {
        verbs: "لم تعد|ملغاة|ملغية|باطلة|غير سارية|غير صالحة|الغيت|لاغية",
        quals: "~سابق|جميع|كل|~اعلاه|~قديم",
        targets: "~تعليمات|~اوامر|~قواعد|~ارشادات|~توجيهات",
        window: 6,
    },
    Family {
        verbs: "मान्य नहीं|अमान्य|रद्द|निरस्त|लागू नहीं",
        quals: "पिछले|पिछली|पहले|सभी|ऊपर|पुराने",
        targets: "निर्देश*|आदेश*|नियम*",
        window: 6,
    },
    // "act as if you had no rules", "imagine you have no restrictions"
    Family {
        verbs: "actua como si|actue como si|haz como si|imagina que|finge que|agisci come se|immagina di|fai finta|\
                finja que|aja como se|imagine que|fais comme si|agis comme si|представь|представьте|притворись|\
                stell dir vor|tu so als|doe alsof|stel je voor|udawaj|wyobraz sobie|zachowuj sie jakbys|varsay|\
                تخيل|تظاهر|कल्पना करो|मान लो",
        quals: "no|sin|ningun*|nessuna|nessun|senza|sem|nenhuma|нет|никаких|без|keine|keinerlei|ohne|geen|zonder|\
                zadnych|bez|yok|hic|لا|بلا|بدون|कोई|नहीं|pas|aucune|aucun|sans",
        targets: "reglas|restricciones|limites|filtros|regole|restrizioni|limiti|regras|restricoes|правил|\
                  ограничений|regeln|einschrankungen|regels|beperkingen|zasad|ograniczen|kural|kisitlama|~قواعد|\
                  ~قيود|नियम|प्रतिबंध|regles|restrictions|filtres",
        window: 6,
    },
];
