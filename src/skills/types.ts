/** What a skill's front matter says (SKILL.md, Hermes Agent's and agentskills.io's fields). */
export interface SkillMeta {
  /** The skill's name (front matter `name`); also its slash command. */
  readonly name: string;
  /** One line on what it is for and when to use it (front matter `description`); the prompt index shows it. */
  readonly description: string;
  readonly version?: string;
  readonly tags: readonly string[];
  /** Where it applies: OS names (linux, macos, windows) and/or messaging platforms (telegram, slack, ...); empty: everywhere. */
  readonly platforms: readonly string[];
  /** The session a background review created it in (front matter `source_session`), when it did. */
  readonly sourceSession?: string;
}

/** A skill on disk that parsed and passed the threat scan. */
export interface Skill {
  readonly meta: SkillMeta;
  /** Folders between skills/ and the skill's folder ("devops", "a/b"), or null for skills/<name>/. */
  readonly category: string | null;
  /** Absolute path of the skill's folder. */
  readonly dir: string;
  /** Absolute path of its SKILL.md. */
  readonly file: string;
  /** The Markdown body (front matter stripped). */
  readonly body: string;
}

/** A SKILL.md that was skipped, and why (shown by `hermes skills list`). */
export interface BrokenSkill {
  /** Path of the SKILL.md relative to skills/. */
  readonly path: string;
  /** What is wrong, in one line (e.g. "front matter has no description"). */
  readonly reason: string;
}

/** Every skill of a profile, as read now. */
export interface SkillCatalog {
  /** Usable skills, sorted by category then name. */
  readonly skills: readonly Skill[];
  readonly broken: readonly BrokenSkill[];
}

/** The logging skill loading does; a pino logger fits. */
export interface SkillsLogger {
  warn(obj: object, msg?: string): void;
}

/** What `skill_manage` asks for (Hermes Agent's argument names, camel-cased). */
export interface SkillManageRequest {
  readonly action: 'create' | 'patch' | 'edit' | 'delete' | 'write_file' | 'remove_file';
  readonly name: string;
  /** create: the folder between skills/ and the skill's folder. */
  readonly category?: string;
  /** create, edit: the whole SKILL.md (front matter and body). */
  readonly content?: string;
  /** patch: text that occurs exactly once in the file. */
  readonly oldString?: string;
  /** patch: what replaces it ('' deletes it). */
  readonly newString?: string;
  /** patch, write_file, remove_file: a file under references/, templates/, scripts/ or assets/ (patch: default SKILL.md). */
  readonly filePath?: string;
  /** write_file: the file's text. */
  readonly fileContent?: string;
}

/** The profile's skills (skills/<category>/<name>/SKILL.md): listing, reading and changing them. */
export interface SkillsCapability {
  /** The text for the model: every usable skill (name, category, description), optionally of one category. */
  list(params: { category?: string; signal: AbortSignal }): Promise<string>;
  /** A skill's body, or one file of its folder (path-confined to it). Throws ToolError when there is no such skill or file. */
  view(params: { name: string; filePath?: string; signal: AbortSignal }): Promise<string>;
  /**
   * Applies one change; resolves to the text for the model. Every write is validated (name, front matter, sizes),
   * threat-scanned and atomic. `sessionId` is recorded as `source_session` in a skill it creates. Throws ToolError when refused.
   */
  manage(params: SkillManageRequest & { sessionId?: string; signal: AbortSignal }): Promise<string>;
}
