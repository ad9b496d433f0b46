/** What kind of threat a pattern finds. */
export type ThreatCategory = 'injection' | 'exfiltration' | 'hidden-html' | 'invisible-unicode';

/**
 * Which copy of the text a pattern runs on (see normalize.ts):
 * - `flat`: NFKC, invisible characters removed, lower case, every whitespace run one space, no spaces between
 *   Chinese/Japanese characters (phrases that a line wrap or inserted spaces split still match);
 * - `lines`: the same but newlines kept (shell commands are matched within one line);
 * - `raw`: the text as written (the invisible characters themselves; emoji ZWJ sequences, tag flags and a
 *   leading byte-order mark excused).
 */
export type ThreatView = 'flat' | 'lines' | 'raw';

/** One row of the threat table. */
export interface ThreatPattern {
  readonly id: string;
  readonly category: ThreatCategory;
  readonly view: ThreatView;
  /**
   * Literal words (alternatives, `\b` at most; no quantifiers, so it cannot backtrack) that every match of `test`
   * contains; the slower linear-time `test` runs only on a view where the anchor is found.
   */
  readonly anchor: RegExp;
  /**
   * For `flat` rows whose matches are short: the test runs only within this many characters around each anchor
   * occurrence (much faster on long texts). A match reaching further from its anchor is not found, so rows whose
   * match can be long (a comment's body, a tag's attributes, a URL) leave it unset.
   */
  readonly window?: number;
  /**
   * Written for V8's linear-time engine (scan.ts compiles it with the `l` flag, so no text can make it
   * backtrack): no lookaround, no backreferences, no counted repetition, no `i`/`u` flags (the views are
   * lower-cased; astral characters are written as surrogate pairs).
   */
  readonly test: RegExp;
  /** Why a match is refused, written as "it ...". */
  readonly reason: string;
}

// Shared pieces, in the lower-cased views.
/** Commands that send data over the network. */
const NET = String.raw`(?:curl|wget|nc|ncat|netcat|socat|telnet|scp|sftp|ftp|rsync|invoke-webrequest|invoke-restmethod|iwr|irm)`;
/** Shell commands that read or pack a file (anywhere earlier on the line). */
const READ_CMD = String.raw`(?:cat|less|more|head|tail|bat|strings|xxd|od|base64|tar|zip|scp|rsync|get-content)`;
/** Verbs of prose that read or hand over a file; the file must follow within a few words ("read the .env"). */
const READ_VERB = String.raw`(?:read|print|show|dump|send|upload|post|leak|exfiltrate|reveal|share|email|display|output|open)`;
/** Words allowed between a prose verb and its file. */
const NEAR = String.raw`(?:me |us )?(?:the |your |my |this |that |all )?(?:contents? of |content of )?(?:the |your |my |this |that )?`;
/** Where a path ends (no lookahead in the linear engine: a terminator character or the end of a line). */
const END = String.raw`(?:[\s'"\x60)|;&,>]|$)`;
/** A home directory. */
const HOME = String.raw`(?:~|\$home|\$\{home\}|/home/[^/\s]+|/root|/users/[^/\s]+|%userprofile%)`;
/** The user, ending a clause or followed by what is hidden from them ("... the user.", "... the user about this"). */
const USER_TAIL = String.raw`(?:user|owner|human|operator)(?:[.,;:!)"]|$| (?:about|of) (?:this|it|that|these|the (?:above|following|instructions|change|changes))\b| that (?:you|i|this|these|we|it)\b)`;
/** Chinese: the user / owner. */
const ZH_USER = '(?:用户|用戶|使用者|主人|人类|人類)';
/** Chinese: "don't". */
const ZH_NEG = '(?:不要|别|別|不得|不准|切勿|请勿|請勿|禁止|千万不要|千萬不要|绝对不要|絕對不要|不可以|不能)';
/** Chinese: instruction / prompt nouns (the anchor: ordinary sentences with 忽略 lack them; not 设定, settings are ignored innocently). */
const ZH_NOUN = '(?:指令|指示|提示词|提示詞|命令|规则|規則|约束|約束|要求|说明|說明)';
/** Japanese: the user / owner. */
const JA_USER = '(?:ユーザー|ユーザ|利用者|使用者|ご主人|主人|オーナー|人間)';
/** Japanese: instruction / prompt nouns. */
const JA_NOUN = '(?:システムプロンプト|プロンプト|指示|命令|指令|ルール|制約)';
/** Korean: instruction / prompt nouns. */
const KO_NOUN = '(?:시스템 ?프롬프트|프롬프트|지시 ?사항|지시|명령어|명령|지침|규칙|제약)';

/** Builds a pattern from pieces (the pieces above are plain strings). */
function re(source: string): RegExp {
  return new RegExp(source);
}

/** The threat table, checked in order (the first match is the finding); every row has a positive and a benign test. */
export const threatPatterns: readonly ThreatPattern[] = [
  // --- hidden HTML (first: where an instruction hides is the most useful reason) ---
  {
    id: 'html-comment-instruction',
    category: 'hidden-html',
    view: 'flat',
    anchor: /<!--/,
    // The body never contains "-->" (units: a non-dash, dashes and a character that is neither dash nor ">", or "->");
    // the keyword follows a space or the opening, so "prettier-ignore" is not one.
    test: /<!--(?:(?:[^-]|-+[^->]|->)*?(?: |-+ ))?(?:(?:ignore|disregard|forget)(?: all| any| the| your| my)? (?:previous|prior|above|earlier|everything|instructions|rules|the user|your|system|safety)|override|instructions?|system prompt|system message|prompt|you are now|you must|assistant|ai agent|do not tell|don't tell)\b/,
    reason: 'it hides instructions in an HTML comment',
  },
  {
    id: 'html-hidden-text',
    category: 'hidden-html',
    view: 'flat',
    anchor: /style/,
    test: /<[a-z][a-z0-9]*\b[^>]*? style ?= ?[^>]*?(?:display ?: ?none|visibility ?: ?hidden|font-size ?: ?0(?:\.0+)?(?:px|pt|em|rem|%)?[ ;"']|opacity ?: ?0(?:\.0+)?[ ;"']|color ?: ?transparent)[^>]*>(?: |<[^>]*>)*[^<> ]/,
    reason: 'it hides text with CSS (display:none, visibility:hidden, font-size:0)',
  },

  // --- prompt injection (English) ---
  {
    id: 'ignore-previous',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /ignore|disregard|forget|skip|abandon|drop/,
    test: /\b(?:ignore|disregard|forget|skip|abandon|drop) (?:all |any |every )?(?:of )?(?:the |your |my |these |those )?(?:previous|prior|above|earlier|preceding|former|foregoing|original|initial|old)(?: \w+)? (?:instructions?|prompts?|rules|directions|directives|guidelines|commands|guidance|constraints)\b/,
    reason: 'it asks to ignore earlier instructions',
  },
  {
    id: 'ignore-everything',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /ignore|disregard|forget/,
    test: /\b(?:ignore|disregard|forget) (?:everything|anything|all(?: of)? that|all of this|whatever) (?:(?:you (?:were|have been|'ve been) |that was |i )?(?:told|said|written|instructed|given) )?(?:before|above|previously|earlier|so far|until now|up to now)\b/,
    reason: 'it asks to forget everything said before',
  },
  {
    id: 'new-instructions',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /instructions|directives/,
    test: /\b(?:new|updated|revised|real|actual|true|override|secret|hidden) (?:system )?(?:instructions|directives) ?:/,
    reason: 'it announces new instructions for the assistant',
  },
  {
    id: 'you-are-now',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /you are n/,
    test: /\byou are now (?:a |an |the |my |in |called |named )?(?:\w+ ){0,2}?(?:ai|assistant|chatbot|bot|model|llm|agent|persona|character|mode|dan|jailbroken|unrestricted|unfiltered|uncensored|unchained|evil|hacker|free from|no longer)\b|\byou are no longer (?:an? )?(?:ai|assistant|bound|restricted|limited|chatgpt|claude|required to)\b/,
    reason: 'it tries to give the assistant a new identity ("you are now ...")',
  },
  {
    id: 'from-now-on',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /from now on/,
    test: /\bfrom now on,? (?:you (?:are|will be|shall be|are going to be|will act as|will behave as|act as|will pretend to be|must act as)|(?:act|behave|respond|pretend to be) as) (?:a |an |the |my )?(?:\w+ ){0,2}?(?:ai|assistant|chatbot|bot|model|llm|agent|persona|character|dan|jailbroken|unrestricted|unfiltered|uncensored|evil|hacker|different|new)\b/,
    reason: 'it tries to give the assistant a new identity ("from now on you are ...")',
  },
  {
    id: 'act-without-restrictions',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /without|with no|free of|free from|ignoring|unbound|have no/,
    test: /\b(?:act|behave|respond|answer|operate|pretend|roleplay|role-play|reply)(?: as| like| to be)? (?:\w+ ){0,5}?(?:without|with no|free of|free from|ignoring|unbound by) (?:any |all |your |the |its )?(?:restrictions|limits|limitations|filters|filtering|rules|guidelines|censorship|safeguards|guardrails|boundaries|ethics|morals|policies|content polic(?:y|ies))\b|\byou (?:now )?have no (?:restrictions|rules|limits|limitations|filters|guidelines|ethics|morals)\b/,
    reason: 'it asks the assistant to act without its restrictions',
  },
  {
    id: 'jailbreak',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /\bdan\b|do anything now|developer mode|jailbreak|stay in character/,
    test: /\b(?:dan mode|do anything now|developer mode (?:enabled|on|activated)|enable (?:dan|developer mode|jailbreak mode)|jailbreak(?:ed)? (?:mode|prompt|enabled|activated)|you are (?:dan|jailbroken)|stay in character (?:as dan|no matter what))\b/,
    reason: 'it is a jailbreak prompt (DAN, developer mode)',
  },
  {
    id: 'conceal-from-user',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /user|owner|human|operator/,
    // The user must end the clause or be followed by "about this" / "that you ...": "do not show the user raw JSON"
    // and "never mention the user's ex" are preferences, not concealment.
    test: re(
      String.raw`\b(?:(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't) (?:tell|inform|notify|alert|mention|reveal|disclose|show|explain|let on)` +
        String.raw`(?: this| that| it| anything| any of this| these instructions| this instruction| this message| about this| about it)?(?: to)?` +
        String.raw`|without (?:telling|informing|notifying|alerting)) (?:the |your )?${USER_TAIL}`,
    ),
    reason: 'it asks to hide something from the user',
  },
  {
    id: 'keep-secret-from-user',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /user|owner|human|operator/,
    test: /\b(?:keep|hide) (?:this|that|it|these instructions|this instruction|this message|this note|the following) (?:a secret |secret |hidden |confidential )?from (?:the |your )?(?:user|owner|human|operator)(?:[^'a-z]|$)|\bthe (?:user|owner) (?:must|should|need|needs to)(?: not|n't) (?:know|find out|learn|be told|see) (?:about )?(?:this|these instructions|that you)\b/,
    reason: 'it asks to keep something secret from the user',
  },
  {
    id: 'system-prompt-override',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /system|developer|original|initial|safety/,
    test: /\b(?:override|overwrite|replace|bypass|disable|ignore|discard|reset|circumvent|change) (?:the |your |this |any |all )?(?:system|developer|original|initial|safety) (?:prompt|message|instructions|rules|guidelines|polic(?:y|ies))\b/,
    reason: 'it tries to override the system prompt',
  },
  {
    id: 'system-prompt-reveal',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /prompt|message|instructions/,
    // Addressed to the model ("your", "me", "the full/hidden ..."): "show the system prompt with hermes prompt show" is documentation.
    test: /\b(?:print|show|reveal|display|output|repeat|dump|leak|disclose|tell|give|send|echo|share|write out|recite|paste) (?:(?:me|us) (?:back )?(?:the |your |all )?|(?:back )?your |(?:back )?(?:the |all )?(?:full|entire|exact|complete|original|hidden|initial|secret|whole|verbatim) )(?:(?:full|entire|exact|complete|original|hidden|initial|secret|whole|verbatim|of|your) )*(?:system|developer|initial|hidden|original|secret) (?:prompt|message|instructions)\b/,
    reason: 'it asks the assistant to reveal its system prompt',
  },
  {
    id: 'chat-template-tokens',
    category: 'injection',
    view: 'flat',
    window: 200,
    anchor: /<\||<<sys>>|<<\/sys>>|\[inst\]|\[\/inst\]/,
    test: /<\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|>|<<\/?sys>>|\[\/?inst\]/,
    reason: "it contains a chat template's control tokens (a forged system or user turn)",
  },

  // --- exfiltration ---
  {
    id: 'net-secret-variable',
    category: 'exfiltration',
    view: 'lines',
    anchor: /\$/,
    test: re(String.raw`\b${NET}\b[^\n]*?(?:\$\{?[a-z0-9_]*(?:key|token|secret|passw|pwd|credential|cred|auth)|\$\{[a-z_][a-z0-9_]*\})`),
    reason: 'it sends a secret variable (such as $API_KEY) over the network',
  },
  {
    id: 'env-piped-out',
    category: 'exfiltration',
    view: 'lines',
    anchor: /\||\$\(|\x60/,
    test: re(String.raw`\b(?:env|printenv|environ|export -p|set)\b[^\n|]*\|[^\n]*?\b(?:${NET}|mail|sendmail|mutt|ssh)\b|\b${NET}\b[^\n]*?(?:\$\( ?(?:env|printenv|cat |set\b)|\x60 ?(?:env|printenv|cat |set\b))`),
    reason: 'it sends the environment (env / printenv) over the network',
  },
  {
    id: 'net-upload-file',
    category: 'exfiltration',
    view: 'lines',
    anchor: /\bcurl\b|\bwget\b|\bnc\b|\bncat\b|\bnetcat\b|\bsocat\b|\btelnet\b/,
    test: re(String.raw`\bcurl\b[^\n]*? (?:-d|--data|--data-binary|--data-raw|--data-urlencode|-f|--form|-t|--upload-file)[ =]?['"]?(?:[a-z0-9_-]*=)?@?[~/$.][^\s'"]*|\bwget\b[^\n]*?--post-file|\b(?:nc|ncat|netcat|socat|telnet)\b[^\n]*? <`),
    reason: 'it uploads a file to a server',
  },
  {
    id: 'read-dotenv',
    category: 'exfiltration',
    view: 'lines',
    anchor: /\.env/,
    test: re(String.raw`(?:\b${READ_CMD}\b[^\n]*?(?:^|[\s'"=:(/~])|\b${READ_VERB} ${NEAR}(?:[^\s'"]*/)?)\.env(?:\.(?:local|prod|production|dev|development|staging|test))?${END}`),
    reason: 'it reads a .env file (secrets)',
  },
  {
    id: 'ssh-keys',
    category: 'exfiltration',
    view: 'lines',
    anchor: /\.ssh|id_/,
    test: re(String.raw`(?:\b${READ_CMD}\b[^\n]*?|\b${READ_VERB} ${NEAR})${HOME}/\.ssh(?:/(?:id_[a-z0-9]+|config|known_hosts))?${END}|\bid_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?${END}`),
    reason: 'it reads SSH keys (~/.ssh, id_rsa)',
  },
  {
    id: 'authorized-keys',
    category: 'exfiltration',
    view: 'lines',
    anchor: /authorized_keys/,
    test: /\bauthorized_keys2?\b/,
    reason: 'it touches ~/.ssh/authorized_keys (a way to plant a login)',
  },
  {
    id: 'system-secrets',
    category: 'exfiltration',
    view: 'lines',
    anchor: /\/etc\//,
    test: re(String.raw`/etc/(?:shadow|gshadow|master\.passwd|sudoers)${END}`),
    reason: 'it reads system password files (/etc/shadow)',
  },
  {
    id: 'credentials-file',
    category: 'exfiltration',
    view: 'lines',
    anchor: /credentials|\.netrc|\.pgpass|\.pypirc|\.docker|\.kube|\.config/,
    test: re(String.raw`(?:\b${READ_CMD}\b[^\n]*?|\b${READ_VERB} ${NEAR}[^\s'"]*?)(?:\.aws/credentials|\.git-credentials|\.netrc|\.pgpass|\.pypirc|\.docker/config\.json|\.kube/config|\.config/gcloud|credentials\.(?:json|csv|txt|ya?ml|db|toml))${END}|\b${READ_CMD}\b[^\n]*?[\s/~'"]credentials${END}`),
    reason: 'it reads a credentials file',
  },
  {
    id: 'send-secrets',
    category: 'exfiltration',
    view: 'flat',
    window: 200,
    anchor: /credentials|passwords|api key|secrets|tokens|private key|environment|env vars/,
    test: /\b(?:send|upload|post|exfiltrate|leak|email|forward|paste|transmit|report) (?:me |us )?(?:the |your |all |any |my )?(?:user's |users' |stored |saved |aws |api |ssh |login |private )?(?:credentials|passwords|api keys?|secrets|tokens|private keys?|environment variables|env vars) (?:to|into|at|via) (?:https?:\/\/|ftp:\/\/|[a-z0-9._-]+@|me\b|us\b|this (?:url|address|server|endpoint)|the following)/,
    reason: 'it asks to send secrets somewhere',
  },
  {
    id: 'send-file-to-url',
    category: 'exfiltration',
    view: 'flat',
    window: 300,
    anchor: /:\/\//,
    test: /\b(?:send|upload|post|exfiltrate|transmit|forward|copy|pipe|leak|sync) (?:the )?(?:contents? of )?(?:the |this |that |all |every |these |your |my )?(?:files?|directory|folder|repo|repository|workspace|codebase|home directory|(?:~|\.|\/)[^\s]*) (?:[^\s]+ ){0,3}?to (?:https?|ftp):\/\//,
    reason: 'it asks to send files to a URL',
  },
  {
    id: 'markdown-image-exfil',
    category: 'exfiltration',
    view: 'flat',
    anchor: /!\[/,
    test: /!\[[^\]]*\]\(https?:\/\/[^)\s]*\?[^)\s]*=(?:\{|\$\{|\$[a-z_]|%7b|<|\[)/,
    reason: 'it embeds an image whose URL would carry data out (a placeholder in the query)',
  },

  // --- Chinese (simplified and traditional) ---
  {
    id: 'zh-ignore-previous',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: re(ZH_NOUN),
    test: re(
      `(?:忽略|忽视|忽視|无视|無視|不要理会|不要理會|别管|別管|忘记|忘記|忘掉|抛开|拋開|抛弃|拋棄|放弃|放棄|无需遵守|無需遵守|不再遵守)掉?(?:你|您)?的?` +
        `(?:(?:之前|以前|先前|此前|上面|上述|以上|前面|早先|原来|原來|原有|原先|最初|所有|全部|一切|系统|系統|收到|给你|給你)(?:的|之|所有|全部)?){1,3}${ZH_NOUN}`,
    ),
    reason: 'it asks to ignore earlier instructions (Chinese)',
  },
  {
    id: 'zh-role-hijack',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /现在|現在|从今以后|從今以後|今后|今後/,
    test: re(
      `(?:(?:你|您)(?:现在|現在|从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後|今后|今後)|(?:现在|現在|从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後)[,]?(?:你|您))` +
        `就?(?:是|扮演|作为|作為|成为|成為|充当|充當|变成|變成|化身为|化身為)[^,.!?;。！？]*?` +
        `(?:ai|人工智能|助手|机器人|機器人|模型|角色|人格|dan|没有限制|沒有限制|不受限制|无限制|無限制|越狱|越獄|黑客|邪恶|邪惡)`,
    ),
    reason: 'it tries to give the assistant a new identity (Chinese "你现在是...")',
  },
  {
    id: 'zh-conceal',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: re(ZH_USER),
    test: re(
      `${ZH_NEG}(?:告诉|告訴|透露给|透露給|泄露给|洩露給|通知|提醒)${ZH_USER}|` +
        `${ZH_NEG}(?:向|对|對|跟|和|让|讓|被)${ZH_USER}(?:透露|提及|提起|说|說|知道|发现|發現|看到|察觉|察覺)|` +
        `(?:对|對|向)${ZH_USER}(?:保密|隐瞒|隱瞞)`,
    ),
    reason: 'it asks to hide something from the user (Chinese)',
  },
  {
    id: 'zh-system-prompt',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /系统|系統/,
    test: /(?:输出|輸出|打印|显示|顯示|告诉我|告訴我|透露|泄露|洩露|重复|重複|给我看|給我看|覆盖|覆蓋|忽略|无视|無視|修改|替换|替換|绕过|繞過)(?:你的|您的|一下)?(?:系统|系統)(?:提示词|提示詞|指令|设定|設定|提示(?:[^音框栏欄]|$))/,
    reason: 'it asks to reveal or override the system prompt (Chinese)',
  },

  // --- Japanese ---
  {
    id: 'ja-ignore-previous',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: re(JA_NOUN),
    test: re(
      `(?:前|以前|上記|上|これまで|今まで|先ほど|先程|最初|元|既存|全て|すべて|全部|システム)の(?:すべての|全ての|全部の)?${JA_NOUN}` +
        `(?:は|を|も)?(?:すべて|全て|全部|一切|完全に)?(?:無視|忘れ|破棄|放棄|無効に)`,
    ),
    reason: 'it asks to ignore earlier instructions (Japanese)',
  },
  {
    id: 'ja-role-hijack',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /今から|これから|今後|今日から|今や|もう/,
    test: /(?:(?:あなた|君|きみ|お前|おまえ)は(?:今から|これから|今後|今日から|今や|もう)|(?:今から|これから|今後)(?:あなた|君|きみ|お前|おまえ)は)[^.!?。！？]*?(?:ai|アシスタント|ボット|キャラクター|人格|dan|制限のない|制限なし|無制限|脱獄|ハッカー|悪意|として振る舞|として振舞|として行動|になりきっ|を演じ)/,
    reason: 'it tries to give the assistant a new identity (Japanese "あなたは今から...")',
  },
  {
    id: 'ja-conceal',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: re(JA_USER),
    test: re(
      `${JA_USER}(?:に|には|へ|へは)(?:絶対に|決して|くれぐれも)?(?:言わない|言うな|伝えない|伝えるな|教えない|教えるな|知らせない|知らせるな|話さない|話すな|明かさない|明かすな|漏らさない|漏らすな|バレない)|` +
        `${JA_USER}(?:に|には)(?:秘密|内緒)(?:に|で)`,
    ),
    reason: 'it asks to hide something from the user (Japanese)',
  },
  {
    id: 'ja-system-prompt',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /システムプロンプト/,
    test: /システムプロンプト(?:を|は)?(?:すべて|全て|そのまま)?(?:表示|出力|教え|見せ|開示|無視|上書き|変更|繰り返|公開|書き出)/,
    reason: 'it asks to reveal or override the system prompt (Japanese)',
  },

  // --- Korean (words keep their spaces) ---
  {
    id: 'ko-ignore-previous',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /프롬프트|지시|명령|지침|규칙|제약/,
    test: re(
      `(?:이전|앞|위|앞서|기존|지금까지|원래|모든)(?:의|에)? ?(?:받은 |주어진 |내린 )?(?:모든 )?${KO_NOUN}` +
        `(?:을|를|은|는|도|들을|들은|들)? ?(?:모두 |전부 |다 |완전히 )?(?:무시|잊어|잊고|잊으|버려|버리|폐기)`,
    ),
    reason: 'it asks to ignore earlier instructions (Korean)',
  },
  {
    id: 'ko-role-hijack',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /이제|지금부터|앞으로|오늘부터/,
    test: /(?:너는|넌|너|당신은|당신|그대는|네가|니가) ?(?:이제|지금부터|이제부터|앞으로|오늘부터)(?:부터)? [^.!?。]*?(?:ai|어시스턴트|비서|봇|모델|캐릭터|인격|역할|dan|제한 없는|제한없는|무제한|탈옥|해커|악당|사악)/,
    reason: 'it tries to give the assistant a new identity (Korean "너는 이제...")',
  },
  {
    id: 'ko-conceal',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /에게|한테|께/,
    test: /(?:사용자|유저|이용자|주인|오너)(?:에게|한테|께)(?:는)? ?(?:절대 |절대로 |결코 )?(?:이 ?(?:것|사실|내용)을? )?(?:말하지|알리지|알려주지|얘기하지|이야기하지|전하지|보여주지|공개하지|누설하지|밝히지) ?(?:마|말[고아라])|(?:사용자|유저|이용자)(?:에게|한테)(?:는)? ?(?:비밀로|숨겨)/,
    reason: 'it asks to hide something from the user (Korean)',
  },
  {
    id: 'ko-system-prompt',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /프롬프트/,
    test: /시스템 ?프롬프트(?:를|을|는)? ?(?:그대로 |전부 |모두 )?(?:출력|보여|알려|공개|무시|덮어|변경|반복|표시)/,
    reason: 'it asks to reveal or override the system prompt (Korean)',
  },

  // --- "new instructions:" in Chinese, Japanese, Korean ---
  {
    id: 'cjk-new-instructions',
    category: 'injection',
    view: 'flat',
    window: 120,
    anchor: /指令|指示|命令|规则|規則|ルール|지시|명령|규칙/,
    test: /(?:新的?|最新的?|真正的|更新后的|更新後的|新しい|本当の|새로운|새|진짜) ?(?:系统|系統|システム|시스템)? ?(?:指令|指示|命令|规则|規則|ルール|지시 ?사항|지시|명령|규칙) ?:/,
    reason: 'it announces new instructions for the assistant (Chinese, Japanese, Korean)',
  },

  {
    id: 'cjk-send-secrets',
    category: 'exfiltration',
    view: 'flat',
    anchor: /key|token|密钥|密鑰|令牌|密码|密碼|凭证|憑證|凭据|憑據|环境变量|環境變數|私钥|私鑰|キー|トークン|パスワード|秘密鍵|認証情報|環境変数|シークレット|키|토큰|비밀번호|암호|자격|환경/,
    window: 200,
    // A destination (a URL, an address, "this URL") is required: "不要把密码发给任何人" is advice, not exfiltration.
    test: re(
      `(?:api ?key|api ?密钥|密钥|密鑰|令牌|密码|密碼|凭证|憑證|凭据|憑據|token|环境变量|環境變數|私钥|私鑰)(?:都|全部)?(?:发送|發送|发|發|上传|上傳|转发|轉發|泄露|洩露|贴|貼)(?:到|给|給|至) ?(?:https?://|[a-z0-9._-]+@|这个|這個|以下|下面)|` +
        `(?:api ?キー|api ?key|トークン|パスワード|秘密鍵|認証情報|環境変数|シークレット)(?:を|は)?(?:すべて|全て)? ?(?:https?://[^\s]+|[a-z0-9._-]+@[^\s]+|このurl|次のurl|以下のurl) ?(?:に|へ)(?:送|アップロード|転送|ポスト)|` +
        `(?:api ?키|api ?key|토큰|비밀번호|암호|비밀 ?키|개인 ?키|자격 ?증명|환경 ?변수)(?:를|을|는)? ?(?:모두 |전부 )?(?:https?://[^\s]+|[a-z0-9._-]+@[^\s]+|이 ?url|다음 ?url) ?(?:로|으로|에|에게) ?(?:보내|전송|업로드|전달)`,
    ),
    reason: 'it asks to send secrets somewhere (Chinese, Japanese, Korean)',
  },

  // --- invisible Unicode (run on the raw text; last, so a phrase they hide is the reason given) ---
  {
    id: 'zero-width',
    category: 'invisible-unicode',
    view: 'raw',
    anchor: /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/,
    test: /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/,
    reason: 'it contains zero-width characters (invisible text)',
  },
  {
    id: 'bidi-control',
    category: 'invisible-unicode',
    view: 'raw',
    anchor: /[\u202A-\u202E\u2066-\u2069]/,
    test: /[\u202A-\u202E\u2066-\u2069]/,
    reason: 'it contains bidirectional override characters (text that reads differently than it shows)',
  },
  {
    id: 'tag-characters',
    category: 'invisible-unicode',
    view: 'raw',
    anchor: /\uDB40/,
    // U+E0000..U+E007F as surrogate pairs (the linear engine takes no `u` flag).
    test: /\uDB40[\uDC00-\uDC7F]/,
    reason: 'it contains Unicode tag characters (invisible ASCII)',
  },
];
