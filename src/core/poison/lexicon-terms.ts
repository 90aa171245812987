/**
 * The attack concepts in many languages: imperative forms, written as a reader would type them
 * (accents and all; they are folded like the text before matching). A term is a prefix unless it
 * ends in `$` (a whole word). English is here for the concepts its phrase rules do not cover
 * with synonyms ("pay no attention to the earlier directions").
 *
 * Languages: en, es, pt, fr, de, it, nl, ru, uk, zh, ja, ko, ar, hi, tr, id, vi.
 */
export type Concept =
  | 'ignore'
  | 'instructions'
  | 'prior'
  | 'reveal'
  | 'systemPrompt'
  | 'send'
  | 'data'
  | 'secrecy'
  | 'fromNowOn'
  | 'youMust'
  | 'noLimits'

const split = (list: string) =>
  list
    .split('|')
    .map((term) => term.trim())
    .filter(Boolean)

/** Concept → terms. English terms are listed first; `send` and `data` leave English to cues. */
export const TERMS: Readonly<Record<Concept, readonly string[]>> = {
  ignore: split(`
    ignore$|ignored$|disregard$|disregarded$|forget$|forgotten$|pay no attention to|pay no heed to|
    set aside|put aside|discard$|discarded$|skip$|overlook$|abandon$|stop following|no longer follow|
    stop obeying|stop listening to|throw out|toss out|throw away|scrap$|overrule$|bypass$|never mind|
    nevermind|dismiss$|don't follow|do not follow|don't obey|do not obey|don't pay attention to|
    do not pay attention to|don't listen to|do not listen to|forget about|look past|move past|
    leave behind|get rid of|
    ignora$|ignoren$|ignorad$|olvida$|olvide$|olviden$|olvidad$|descarta$|descarte$|desestima$|
    haz caso omiso|no hagas caso|no sigas|deja de seguir|pasa por alto|omite$|
    ignore$|ignorem$|esqueça$|esqueçam$|desconsidere$|desconsidera$|despreze$|não siga|nao siga|
    deixe de seguir|deixa de lado|
    ignorez$|oublie$|oubliez$|ne tiens pas compte|ne tenez pas compte|fais abstraction|
    faites abstraction|ne suis pas|ne suivez pas|écarte$|écartez$|laisse tomber|laissez tomber|
    passe outre|passez outre|
    ignoriere$|ignorieren sie|ignorier$|vergiss$|vergessen sie|missachte$|verwirf$|überspringe$|
    beachte nicht|befolge nicht|
    ignorate$|ignori$|dimentica$|dimenticate$|dimentichi$|trascura$|trascurate$|non seguire|
    non seguite|lascia perdere|metti da parte|
    negeer$|vergeet$|
    игнорируй|проигнорируй|забудь|не обращай внимания|не обращайте внимания|не учитывай|отбрось|
    пренебреги|не следуй|не выполняй|ігноруй|
    忽略|忽视|无视|無視|忘记|忘掉|忘了|不要理会|别理会|不理会|别管|不要管|抛开|抛弃|不要遵守|不要遵循|跳过|
    忘れ|従わな|従わず|捨て|破棄|
    무시|잊어|잊으|따르지 마|따르지 말|
    تجاهل|انس$|انسى|انسي|لا تتبع|لا تلتزم|أهمل|اهمل|
    अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल जाओ|भूल जाएं|भूल जाइए|मत मानो|अनसुना|
    yok say|görmezden gel|unut$|abaikan|lupakan|bỏ qua|quên
  `),
  instructions: split(`
    instructions$|instruction$|directions$|directives$|directive$|guidance$|guidelines$|rules$|
    prompt$|prompts$|orders$|commands$|policies$|programming$|what you were told|
    what you were given|what you've been told|lo que te dijeron|lo que te han dicho|lo que te indicaron|
    o que te disseram|o que lhe disseram|ce qu'on t'a dit|ce qu'on vous a dit|was man dir gesagt hat|
    quello che ti hanno detto|то, что тебе сказали|что тебе говорили|what you have been told|everything you were told|
    everything above|anything above|all of the above|whatever you were told|constraints$|
    restrictions$|guardrails$|safeguards$|
    instrucciones|instrucción|indicaciones|órdenes|reglas|normas|directrices|directivas|pautas|
    consignas|instruções|instrução|orientações|regras|diretrizes|diretivas|ordens|consignes|
    règles|ordres|anweisung|befehle|regeln|vorgaben|richtlinien|instruktionen|anordnungen|
    vorschriften|istruzioni|regole|direttive|indicazioni|ordini|linee guida|instructies|regels|
    aanwijzingen|
    инструкци|указани|правил|команд|директив|промпт|распоряжени|установк|інструкці|
    指令|指示|说明|說明|规则|規則|提示|命令|设定|設定|要求|约束|限制|ルール|プロンプト|制約|制限|
    지시|지침|명령|규칙|프롬프트|설정|
    التعليمات|تعليمات|الأوامر|الاوامر|أوامر|القواعد|قواعد|الإرشادات|الارشادات|التوجيهات|
    निर्देश|नियम|आदेश|हिदायत|दिशानिर्देश|talimat|kurallar|instruksi|aturan|hướng dẫn|chỉ dẫn|quy tắc
  `),
  prior: split(`
    previous$|previously$|prior$|earlier$|above$|before$|original$|originally$|initial$|preceding$|
    former$|existing$|so far|until now|up to now|you were given|you were told|you've been given|
    you have been given|given to you|at the start|built-in|built in|
    antes$|anteriores|anterior$|previas|previos|precedentes|todas las|todos los|que te dieron|
    que recibiste|originales|iniciales|hasta ahora|de arriba|del sistema|prévias|todas as|todos os|
    que recebeu|que te deram|originais|até agora|acima|do sistema|précédent|antérieur|toutes les|
    tous les|ci-dessus|reçues|jusqu'ici|du système|tes consignes|vos consignes|vorherig|bisherig|
    alle$|obigen|früheren|ursprünglich|precedenti|tutte le|tutti i|sopra$|finora|del sistema|
    vorige|eerdere|
    предыдущ|прежн|все$|всех$|выше$|ранее|прошл|изначальн|исходн|попередн|
    之前|以前|先前|上面|上述|所有|原来|原先|此前|前面|全部|これまで|上記|すべて|全て|先の|元の|前の|
    이전|앞의|모든|위의|기존|
    السابقة|السابق|جميع|الأصلية|
    पिछले|पिछली|पिछला|सभी|पहले|पूर्व|सारे|önceki|tüm$|sebelumnya|semua|trước đó|tất cả
  `),
  reveal: split(`
    reveal$|print$|output$|show me|show$|quote back|read back|repeat back|paste back|display$|repeat$|quote$|recite$|dump$|leak$|tell me|
    give me|write out|spell out|paste$|disclose$|expose$|echo$|what is written in|
    what's written in|what are$|what were$|what is$|
    revela$|muestra$|muéstrame|imprime$|dime$|repite$|revele$|mostre$|imprima$|diga$|repita$|
    exiba$|révèle|affiche|montre|donne-moi|dis-moi|répète|verrate|zeige|zeig mir|gib aus|gib mir|
    offenbare|wiederhole|nenne|rivela|mostrami|stampa$|dimmi|ripeti|
    покажи|раскрой|выведи|расскажи|напиши|напечатай|повтори|сообщи|выдай|
    显示|顯示|透露|告诉我|输出|輸出|打印|泄露|公开|展示|说出|写出|教えて|表示|出力|明かし|見せ|公開|
    書き出|보여|알려|출력|공개|말해|اكشف|أظهر|اظهر|اعرض|اطبع|أخبرني|اخبرني|
    बताओ|बताएं|दिखाओ|दिखाएं|प्रकट|लिखो
  `),
  systemPrompt: split(`
    system prompt|system message|initial prompt|hidden prompt|hidden instructions|
    secret instructions|original instructions|initial instructions|your instructions|your prompt|
    hidden configuration|text that appears before|text before the first|before the first user message|before the first message|in your context|your context window|context window|your configuration|confidential setup|setup text|
    developer message|developer prompt|operator prompt|pre-prompt|pre prompt|preprompt|words above|
    text above|everything above|text that came before|came before this|instructions you were given|developer instructions|operator instructions|instructions that precede|
    precede this conversation|preceding instructions|came before this conversation|
    instructions were you given|hidden rules|internal instructions|your guidelines|
    prompt del sistema|instrucciones del sistema|mensaje del sistema|instrucciones ocultas|
    tus instrucciones|prompt do sistema|instruções do sistema|mensagem do sistema|
    instruções ocultas|suas instruções|prompt système|invite système|instructions système|
    message système|consignes cachées|tes instructions|vos instructions|systemprompt|
    system-prompt|systemanweisung|systemnachricht|versteckten anweisungen|deine anweisungen|
    prompt di sistema|istruzioni di sistema|messaggio di sistema|tue istruzioni|
    системный промпт|системн|скрытые инструкции|твои инструкции|ваши инструкции|
    系统提示|系統提示|系统指令|系统消息|提示词|初始指令|隐藏指令|システムプロンプト|システム指示|
    システムメッセージ|初期指示|隠された指示|시스템 프롬프트|시스템 지시|시스템 메시지|
    موجه النظام|تعليمات النظام|رسالة النظام|सिस्टम प्रॉम्प्ट|सिस्टम निर्देश
  `),
  send: split(`
    envía|envia$|envíe|envie$|manda$|mande$|reenvía|transfiere|sube$|comparte|encaminhe|
    encaminha|transfira|compartilhe|repasse|envoie|envoyez|transmets|transmettez|transfère|
    transférez|partage|fais suivre|sende|senden sie|schicke|schick$|leite weiter|übermittle|
    lade hoch|invia|inviate|mandate|inoltra|trasmetti|condividi|
    отправ|перешли|пересыл|пришли|переда|загрузи|слей|
    发送|發送|发给|转发|轉發|上传|传给|发到|寄给|分享给|送信|送って|転送|送る|送れ|アップロード|
    보내|전송|업로드|붙여|أرسل|ارسل|انقل|شارك|भेजो|भेजें|भेज दो|भेज दें|अपलोड
  `),
  data: split(`
    contraseña|datos|historial|correo|dirección|conversación|mensajes|número de teléfono|tarjeta|
    cuenta bancaria|senha|dados|histórico|conversa$|endereço|mensagens|cartão|telefone|
    mot de passe|mots de passe|données|historique|adresse|carte bancaire|passwort|passwörter|
    daten|verlauf|gesprächsverlauf|nachrichten|zugangsdaten|kennwort|telefonnummer|dati$|
    cronologia|conversazione|indirizzo|messaggi|
    парол|данны|истори|переписк|адрес|сообщени|номер телефона|
    密码|數據|数据|聊天记录|对话|對話|地址|住址|邮箱|电话|个人信息|パスワード|データ|履歴|会話|住所|
    個人情報|メール|電話番号|비밀번호|데이터|대화|주소|개인정보|이메일|전화번호|
    كلمة المرور|كلمات المرور|البيانات|المحادثة|سجل|العنوان|الرسائل|
    पासवर्ड|डेटा|बातचीत|पता$|संदेश|ईमेल
  `),
  secrecy: split(`
    sin avisar|sin decir|sin informar|no le digas|no informes|sin que el usuario|no se lo digas|
    en secreto|sem avisar|sem contar|sem informar|não conte|nao conte|não diga|sem que o usuário|
    em segredo|sans prévenir|sans le dire|sans informer|ne dis pas|ne lui dis pas|
    cacher à l'utilisateur|cache à l'utilisateur|à l'insu|ohne den nutzer|ohne dem nutzer|
    sag dem nutzer nicht|verschweige|heimlich|ohne dass der|senza avvisare|senza dire|
    senza informare|non dirlo|di nascosto|all'insaputa|
    не говори|не сообщай|без ведома|скрой от|скрывай|втайне|тайно|чтобы пользователь не|
    不要告诉|别告诉|不要让用户知道|瞒着|偷偷|秘密地|不告诉|言わない|知らせず|内緒|こっそり|秘密に|
    伝えず|言わずに|말하지 마|알리지 말|몰래|비밀로|دون إخبار|دون علم|بدون إخبار|لا تخبر|سرا|
    मत बताओ|न बताएं|चुपके से|बिना बताए
  `),
  fromNowOn: split(`
    a partir de ahora|de ahora en adelante|desde ahora|a partir de agora|de agora em diante|
    daqui em diante|daqui pra frente|à partir de maintenant|désormais|dorénavant|à l'avenir|
    dès maintenant|ab jetzt|von nun an|ab sofort|künftig|in zukunft|d'ora in poi|da ora in poi|
    d'ora in avanti|da adesso|с этого момента|отныне|впредь|теперь|с сегодняшнего дня|
    从现在开始|从现在起|今后|以后|从今以后|从此|今後|これから|今から|以降|지금부터|앞으로|이제부터|
    من الآن فصاعدا|من الآن|بعد الآن|अब से|आगे से|आज से
  `),
  noLimits: split(`
    sin filtros|sin restricciones|sin reglas|sin límites|sem filtros|sem restrições|sem regras|
    sem limites|sans filtre|sans filtres|sans restriction|sans restrictions|sans règles|
    ohne filter|ohne einschränkungen|ohne regeln|senza filtri|senza restrizioni|senza regole|
    без фильтров|без ограничений|без правил|没有限制|不受限制|无限制|没有规则|制限なし|制限なしで|
    フィルターなし|제한 없이|필터 없이|بدون قيود|بدون فلتر|बिना किसी प्रतिबंध|बिना फ़िल्टर
  `),
  youMust: split(`
    ты должен|ты должна|вы должны|tu dois|vous devez|debes$|deberás|você deve|voce deve|du musst|
    sie müssen|devi$|dovrai|你必须|你要|必须|しなければ|してください|해야|يجب عليك|तुम्हें|आपको
  `),
}
