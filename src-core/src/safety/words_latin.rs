//! Instruction-override families of languages written in Latin script, words folded as
//! `normal::fold_word` reads them (no accents: `precedentes`, `esqueca`, `onceki`).

use super::families::Family;

/// German, French, Spanish, Italian, Portuguese, Dutch, Polish, Turkish: "ignore (all)
/// previous instructions" and its synonyms, in any word order.
pub(crate) const OVERRIDES: &[Family] = &[
    // German
    Family {
        verbs: "ignorier*|vergiss|vergesst|vergessen sie|missacht*|uberschreib*|ubergeh*|verwirf|verwerft|umgeh*|\
                hinweg|ausser kraft|ausser acht|nicht mehr befolgen|nicht befolgen|befolge nicht|befolge keine|\
                befolgen sie nicht|halte dich nicht|streiche|loesche|losche",
        quals: "vorherig*|vorig*|bisherig*|obig*|vorangegangen*|vorangehend*|fruher*|alle|allen|alles|alten|\
                ursprunglich*|oben|zuvor|vorher|deine|deinen|ihre|bestehend*|system*|gegebenen|erhaltenen",
        targets: "~anweisung|~instruktion|befehl*|~regeln|regel|~vorgabe|~richtlinie|~prompt|anordnung*|direktive*|\
                  ~einschrankung|~beschrankung|hinweise|~programmierung|~leitlinie",
        window: 6,
    },
    // French
    Family {
        verbs: "ignore|ignorez|ignorer|ignores|oublie|oubliez|oublier|ecarte|ecartez|neglige|negligez|outrepass*|\
                contourne*|fais abstraction|faites abstraction|ne tiens pas compte|ne tenez pas compte|ne suis plus|\
                ne suivez plus|ne respecte plus|ne respectez plus|passe outre|passez outre|annule|annulez|efface|\
                effacez|abandonne|abandonnez|desobeis|desobeissez",
        quals: "precedent*|anterieur*|dessus|haut|toutes|tous|tout|vos|tes|ton|votre|initial*|original*|systeme|\
                anciennes|existant*|recues|donnees|avant|auparavant",
        targets: "instruction*|consigne*|regle*|directive*|indication*|ordres|prompt*|commande*|restriction*|limites|\
                  programmation|garde|consignes",
        window: 6,
    },
    // Spanish
    Family {
        verbs: "ignora|ignoren|ignorar|ignores|olvida|olviden|olvidar|olvidate|olvidese|descarta|descarte|omite|omita|\
                desobedece|desecha|anula|saltate|salta|haz caso omiso|hagan caso omiso|no hagas caso|no sigas|no siga|\
                deja de seguir|pasa por alto|no tengas en cuenta|no tenga en cuenta|borra|elimina|no obedezcas",
        quals: "anterior*|previa*|previo*|precedente*|todas|todos|toda|todo|arriba|sistema|tus|sus|originales|\
                iniciales|antiguas|existentes|recibidas|dadas|antes|anteriormente",
        targets: "instruccion*|regla*|indicacion*|directriz|directrices|orden|ordenes|norma|normas|pauta*|prompt*|\
                  consigna*|restriccion*|limitacion*|directiva*|programacion",
        window: 6,
    },
    // Italian
    Family {
        verbs: "ignora|ignorate|ignorare|ignori|dimentica|dimenticate|dimenticare|dimentichi|trascura|trascurate|scarta|\
                scartate|tralascia|tralasciate|non seguire|non seguite|smetti di seguire|non tenere conto|\
                non tenete conto|non considerare|annulla|aggira|salta|lascia perdere|disobbedisci",
        quals: "precedent*|tutte|tutti|tutto|sopra|prima|anterior*|sistema|tue|tuoi|vostre|original*|iniziali|vecchie|\
                esistenti|ricevute|date",
        targets: "istruzion*|regola|regole|indicazion*|direttiv*|ordini|ordine|prompt*|comand*|consegn*|linee guida|\
                  restrizion*|limitazion*|vincol*|programmazione",
        window: 6,
    },
    // Portuguese
    Family {
        verbs: "ignore|ignora|ignorem|ignorar|esqueca|esquece|esquecam|esquecer|desconsidere|desconsidera|descarte|\
                descarta|despreze|nao siga|nao sigam|deixe de seguir|pare de seguir|anule|anula|burle|contorne|\
                desobedeca|pule|apague",
        quals: "anterior*|previa*|previo*|precedente*|todas|todos|tudo|acima|sistema|suas|seus|tuas|originais|\
                iniciais|antigas|existentes|recebidas|dadas|antes",
        targets: "instruc*|regra*|diretriz*|diretrizes|orientac*|comando*|ordem|ordens|prompt*|norma|normas|restric*|\
                  limitac*|programacao",
        window: 6,
    },
    // Dutch
    Family {
        verbs: "negeer|negeren|negeert|vergeet|vergeten|overschrijf|omzeil|laat varen|gooi weg|volg niet|niet volgen|\
                niet meer volgen|houd geen rekening|hou geen rekening|schrap|overslaan|wis",
        quals: "vorige|eerdere|voorgaande|bovenstaande|alle|oude|oorspronkelijke|je|jouw|uw|systeem|bestaande|gegeven|\
                ontvangen|eerder|daarvoor",
        targets: "instructie*|aanwijzing*|regels|regel|opdracht*|richtlijn*|~prompt|bevel*|beperking*|~instructies|\
                  programmering",
        window: 6,
    },
    // Polish
    Family {
        verbs: "zignoruj|zignorujcie|ignoruj|ignorujcie|zapomnij|zapomnijcie|pomin|pomincie|odrzuc|odrzuccie|zlekcewaz|\
                nie zwracaj uwagi|nie stosuj sie|nie przestrzegaj|przestan przestrzegac|przestan stosowac|nie sluchaj|\
                olej|uniewaznij|zapomniec|zignorowac",
        quals: "poprzedni*|wczesniejsz*|powyzsz*|wszystkie|wszystkich|wszelkie|dotychczasow*|wczesniej|swoje|twoje|\
                twoich|systemow*|pierwotn*|stare|starych|otrzymane",
        targets: "instrukcj*|polecen*|regul*|zasad*|wytyczn*|~prompt|komend*|rozkaz*|ograniczen*|dyrektyw*",
        window: 6,
    },
    // Turkish
    Family {
        verbs: "yok say|yoksay*|unut|unutun|gormezden|ihmal|dikkate alma|dikkate almayin|uyma|uymayin|atla|gecersiz|\
                iptal et|bosver|bos ver|cigne|goz ardi|takma|siliver|sil",
        quals: "onceki|yukaridaki|tum|butun|hepsi|eski|ilk|sistem|mevcut|verilen|senin|daha|orijinal|aldigin|once",
        targets: "talimat*|komut*|kural*|yonerge*|yonlendirme*|direktif*|istemi|istemleri|prompt*|emir|emirler*|\
                  emirleri|kisitlama*|sinirlama*|programlama*",
        window: 6,
    },
    // Turkish: "your instructions" is one word (talimatlarını)
    Family {
        verbs: "yok say|yoksay*|unut|unutun|gormezden|ihmal|dikkate alma|uyma|uymayin|gecersiz|goz ardi",
        quals: "",
        targets: "talimatlarin*|kurallarin*|komutlarin*|yonergelerin*|emirlerin*|talimatini|kuralini",
        window: 6,
    },
];
