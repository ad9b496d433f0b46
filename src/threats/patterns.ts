import { cjkPatterns } from './patterns-cjk.js';
import type { ThreatPattern } from './types.js';


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
/**
 * Hosts nobody else can receive at: the IANA documentation domains (RFC 2606/6761: example.com/.net/.org and their
 * subdomains, the .example, .test, .invalid and .localhost names) and loopback.
 */
const RESERVED_HOST = String.raw`(?:(?:[a-z0-9-]+\.)*example\.(?:com|net|org)|(?:[a-z0-9-]+\.)+(?:example|test|invalid|localhost)|localhost|127\.0\.0\.1|\[::1\])`;
/** A quoted argument that cannot run a command (no `$(`, no backtick, no nested quote). */
const QUOTED_ARG = String.raw`(?:"[^"\x60(\n]*"|'[^'\n]*')`;
/**
 * One curl command alone on its line (a Markdown bullet, `$ ` prompt or backticks around it at most) whose every
 * argument is known and whose every URL goes to a reserved host: a documented API call with a placeholder. No bare
 * word (curl takes one as a host, and `134744072` as an address), no proxy, --resolve, --connect-to or config file,
 * no userinfo trick (`https://api.example.com@evil.com` is evil.com), no second command.
 */
const DOC_CURL = String.raw`^(?:[-*>] |\$ |\x60+)*curl(?: (?:-[sfklliv]+|--(?:silent|show-error|fail|location|include|insecure|compressed|verbose)|(?:-h|--header|-d|--data|--data-raw|--json|-u|--user|-a|--user-agent|-o|--output) ${QUOTED_ARG}|(?:-x|--request) (?:get|post|put|patch|delete|head|options)|(?:-o|--output) [a-z0-9_.-]+|["']?https?://${RESERVED_HOST}(?::[0-9]+)?(?:[/?#][^\s"'\x60@]*)?["']?))+\x60*$`;
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
    allow: re(DOC_CURL),
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

  // --- Chinese, Japanese, Korean (patterns-cjk.ts) ---
  ...cjkPatterns,

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
