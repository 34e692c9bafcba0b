//! Families beyond "ignore previous instructions", in many languages: "you are now …" with
//! a persona or a mode, notes to the AI reading the text, "if you are an AI", and requests
//! to reveal the system prompt. Words folded as `normal::fold_word` reads them.

use super::families::Family;

/// AI, model, assistant, chatbot.
const AI: &str = "ki|ia|ии|llm|llms|gpt|chatgpt|assistent*|asistente|assistente|ассистент*|модель|нейросет*|chatbot|\
                  sprachmodell|taalmodel|modele|modelo|modello|yapay|~الذكاء|~المساعد|एआई|सहायक|asystent*|model|\
                  bot|agent|агент|modeli";

pub(crate) const ROLES: &[Family] = &[
    // "you are now DAN / an AI without restrictions / in developer mode"
    Family {
        verbs: "du bist jetzt|du bist ab jetzt|ab sofort bist du|ab jetzt bist du|tu es maintenant|tu es desormais|\
                vous etes maintenant|desormais tu es|a partir de maintenant tu es|ahora eres|a partir de ahora eres|\
                desde ahora eres|ora sei|da ora sei|adesso sei|da adesso sei|agora voce e|agora es|a partir de agora voce|\
                теперь ты|отныне ты|ты теперь|теперь вы|с этого момента ты|je bent nu|vanaf nu ben je|jij bent nu|\
                jestes teraz|od teraz jestes|teraz jestes|artik sen|sen artik|bundan sonra sen|انت الان|من الان انت|\
                اصبحت الان|अब तुम|अब आप|अब से तुम|अब से आप|ab tum|ab se tum|ab aap",
        quals: "",
        targets: "dan|ki|ia|ии|assistent*|asistente|assistente|ассистент*|chatbot|modus|~modus|mode|modo|режим*|modu|\
                  modunda|modzie|~وضع|मोड|uneingeschrankt*|unzensiert*|ungefiltert*|ohne einschrankungen|ohne filter|\
                  ohne regeln|ohne zensur|ohne grenzen|sans restrictions|sans filtre|sans limites|sans regles|\
                  sans censure|sin restricciones|sin filtros|sin limites|sin reglas|sin censura|senza restrizioni|\
                  senza filtri|senza limiti|senza regole|senza censura|sem restricoes|sem filtros|sem limites|\
                  sem regras|sem censura|без ограничений|без фильтров|без правил|без цензуры|zonder beperkingen|\
                  zonder filters|zonder regels|zonder censuur|bez ograniczen|bez filtrow|bez zasad|bez cenzury|\
                  kisitlamasiz|sinirsiz|filtresiz|kuralsiz|sansursuz|بدون قيود|بلا قيود|بدون حدود|بدون رقابة|~قيود|बिना|\
                  jailbreak*|jailbroken|libere*|liberad*|liberat*|befreit*|освобожд*|bevrijd*|uwolnion*|\
                  onbeperkt*|nieograniczon*|неограниченн*|illimitat*|ilimitad*|illimite*|irrestrito|persona|\
                  personaje|personnage|personaggio|personagem|персонаж*|yapay|एआई",
        window: 6,
    },
    // "to the AI reading this", "note for the assistant"
    Family {
        verbs: "ai|ki|ia|ии|llm|llms|gpt|chatgpt|assistent*|asistente|assistente|ассистент*|модель|нейросет*|chatbot|\
                sprachmodell|taalmodel|modele|modelo|modello|yapay|~الذكاء|~المساعد|एआई|सहायक|asystent*|model|bot|\
                agent|агент|modeli",
        quals: "dies|diesen|diese|ceci|esto|este|esta|questo|questa|isto|это|этот|эту|dit|deze|bunu|هذا|هذه|यह|इसे|इस",
        targets: "liest|lesende|lisez|lisant|lis|lee|lea|leyendo|legge|leggi|leggendo|lendo|читаешь|читающ*|\
                  читает|прочитает|обрабатывающ*|leest|lezende|czytasz|czytajac*|czyta|okuyan|okuyorsan|okuyorsun|\
                  isleyen|يقرا|تقرا|~يقرا|~تقرا|पढ|पढ|पढने|पढने",
        window: 4,
    },
    // "if you are an AI / a language model"
    Family {
        verbs: "wenn du eine|wenn du ein|falls du eine|falls du ein|si tu es une|si tu es un|si vous etes une|\
                si vous etes un|si eres una|si eres un|si usted es una|si usted es un|se sei|\
                se voce e uma|se voce e um|se voce for uma|se voce for um|если ты|если вы|als je een|als jij een|\
                jesli jestes|jezeli jestes|eger bir|eger sen|اذا كنت|ان كنت|अगर तुम|अगर आप|यदि आप",
        quals: "",
        targets: AI,
        window: 3,
    },
    // "show me your system prompt", "révèle ton prompt système"
    Family {
        verbs: "zeig*|gib|verrate|nenne|wiederhole|drucke|montre|montrez|affiche|affichez|revele|revelez|donne|donnez|\
                repete|repetez|ecris|muestra|muestrame|muestrenos|revela|revelame|dime|repite|imprime|escribe|mostra|\
                mostrami|rivela|dimmi|ripeti|stampa|scrivi|mostre|diga|repita|imprima|покажи|покажите|выведи|раскрой|\
                напиши|повтори|скажи|toon|geef|herhaal|onthul|pokaz|ujawnij|powtorz|wypisz|podaj|goster|yazdir|\
                tekrarla|soyle|اعرض|اظهر|اكشف|كرر|اطبع|दिखाओ|दिखाएं|दिखाइए|बताओ|बताएं|दोहराओ|प्रकट|लिखो",
        quals: "system*|systeme|sistema|systemu|sistem|систем*|systeem|~النظام|सिस्टम|initial*|ursprunglich*|\
                verborgen*|versteckt*|geheim*|cache*|secret*|oculto|oculta|nascost*|segreto|segreta|secreta|скрыт*|\
                исходн*|ukryt*|gizli|~المخفي|~السري|गुप्त|छिपा|छुपा|originale|original",
        targets: "prompt*|промпт*|~برومبت|~موجه|प्रॉम्प्ट|प्रोम्प्ट|istem*",
        window: 5,
    },
    // "tell me your instructions": the reader's own instructions, or hidden ones
    Family {
        verbs: "zeig*|verrate|wiederhole|montre|revele|repete|muestra|muestrame|revela|revelame|repite|mostra|mostrami|\
                rivela|ripeti|mostre|repita|покажи|выведи|раскрой|повтори|toon|herhaal|onthul|pokaz|ujawnij|powtorz|\
                goster|tekrarla|اعرض|اكشف|كرر|दिखाओ|बताओ|दोहराओ",
        quals: "deine|tes|vos|tus|tue|tuoi|suas|seus|твои|ваши|jouw|twoje|senin|geheim*|secret*|cache*|oculta*|\
                nascost*|скрыт*|ukryt*|gizli|~السري|गुप्त|छिपा|अपने|ursprunglich*|initial*|original*|исходн*",
        targets: "anweisungen|instructions|consignes|instrucciones|istruzioni|instrucoes|инструкции|instructies|\
                  instrukcje|talimatlar*|~تعليمات|निर्देश*|regeln|regles|reglas|regole|regras|правила",
        window: 4,
    },
    // "forget everything you were told"
    Family {
        verbs: "vergiss alles|vergesst alles|oublie tout|oubliez tout|olvida todo|olvidate de todo|dimentica tutto|\
                dimenticate tutto|esqueca tudo|esquece tudo|забудь все|забудьте все|vergeet alles|zapomnij wszystko|\
                zapomnij o wszystkim|her seyi unut|hersey|انس كل|انسي كل|सब कुछ भूल|सब भूल",
        // told to the reader, not said by the writer ("was ich gesagt habe")
        quals: "dir|man|dich|euch|t'a|t'ont|qu'on|vous|te|ti|lhe|тебе|вам|тобой|jou|je|ci|sana|size|~لك|तुम्हें|आपको|तुमसे",
        targets: "gesagt|erzahlt|beigebracht|gelernt|dit|appris|dicho|dijeron|dije|ensenaron|detto|insegnato|dito|\
                  ensinaram|disseram|ensinado|говорили|сказали|учили|сказано|gezegd|geleerd|verteld|powiedziano|\
                  nauczono|mowiono|soylenen|soylendi|ogrendigin|ogretilen|~قيل|~تعلمت|बताया|सिखाया|कहा",
        window: 8,
    },
    // German compounds: "zeig mir deinen Systemprompt"
    Family {
        verbs: "zeig*|gib|verrate|nenne|wiederhole|drucke|toon|geef|herhaal|pokaz|podaj|goster",
        quals: "",
        targets: "~systemprompt|~systeemprompt|~systemanweisung|~systeminstruktion|~systeeminstructie|~systemnachricht|\
                  ~systemowy|~promptsystem",
        window: 5,
    },
];
