import type { ThreatPattern } from './types.js';

// The Chinese, Japanese and Korean rows of the threat table (patterns.ts has the row format). CJK has no word
// boundaries, so every row is anchored on the instruction / prompt / user nouns an ordinary sentence lacks.

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

/** Builds a pattern from pieces. */
function re(source: string): RegExp {
  return new RegExp(source);
}

/** The CJK rows, in table order. */
export const cjkPatterns: readonly ThreatPattern[] = [
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
        `(?:api ?キー|api ?key|トークン|パスワード|秘密鍵|認証情報|環境変数|シークレット)(?:を|は)?(?:すべて|全て)? ?(?:https?://\\S+|[a-z0-9._-]+@\\S+|このurl|次のurl|以下のurl) ?(?:に|へ)(?:送|アップロード|転送|ポスト)|` +
        `(?:api ?키|api ?key|토큰|비밀번호|암호|비밀 ?키|개인 ?키|자격 ?증명|환경 ?변수)(?:를|을|는)? ?(?:모두 |전부 )?(?:https?://\\S+|[a-z0-9._-]+@\\S+|이 ?url|다음 ?url) ?(?:로|으로|에|에게) ?(?:보내|전송|업로드|전달)`,
    ),
    reason: 'it asks to send secrets somewhere (Chinese, Japanese, Korean)',
  },
];
