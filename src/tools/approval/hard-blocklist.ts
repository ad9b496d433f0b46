import type { DangerPattern } from './types.js';

// Same conventions as danger-patterns.ts. These are anchored at the program (`^`) where they can be, so a command
// that merely mentions one (`grep "rm -rf /" notes.md`) is not refused: a refusal cannot be overruled.

/** A recursive flag of rm/chmod/chown as a whole word (`--rec` too: GNU tools accept unambiguous abbreviations). */
const R = String.raw`(?:-[a-z]*r[a-z]*|--r(?:e(?:c(?:u(?:r(?:s(?:i(?:ve?)?)?)?)?)?)?)?)`;
/**
 * `/`, `/*`, `/.`, `/./*`, `/?*`, `~`, `~/`, `~/*`, `$home`, `${home}/*`, `${home:?}/`… as a whole word (segments are
 * lower-cased): the top folder followed only by slashes, dots and the wildcards `*` and `?`, which reach all of it.
 */
const TOP = String.raw`(?:\/[\/.*?]*|~[\/.*?]*|\$\{?home(?::[^}\s]*)?\}?[\/.*?]*)`;
/** Top-level system folders whose loss breaks the machine. */
const SYSTEM_DIR = String.raw`\/(?:bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|sbin|srv|sys|usr|var)\/?\*?`;
/** A whole disk (not a partition): /dev/sda, /dev/nvme0n1, /dev/mmcblk0, /dev/vdb. */
const WHOLE_DISK = String.raw`\/dev\/(?:sd[a-z]+|hd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d+n\d+|mmcblk\d+)`;

/** Commands that never run, whatever the approval setting: no approval or "always" rule unlocks them. */
export const HARD_BLOCKLIST: readonly DangerPattern[] = [
  {
    id: 'delete-everything',
    description: 'deleting the whole file system or home folder (rm -rf /, ~ or $HOME)',
    pattern: new RegExp(String.raw`^rm\s(?:.*\s)?${R}\s(?:.*\s)?${TOP}(?:\s|$)|^rm\s(?:.*\s)?${TOP}\s(?:.*\s)?${R}(?:\s|$)`),
  },
  {
    id: 'delete-system-folder',
    description: 'deleting a system folder (rm -rf /usr, /etc…)',
    pattern: new RegExp(
      String.raw`^rm\s(?:.*\s)?${R}\s(?:.*\s)?${SYSTEM_DIR}(?:\s|$)|^rm\s(?:.*\s)?${SYSTEM_DIR}\s(?:.*\s)?${R}(?:\s|$)`,
    ),
  },
  {
    id: 'rm-no-preserve-root',
    description: 'deleting with the root folder safeguard turned off (rm --no-preserve-root)',
    pattern: /^rm\s(?:.*\s)?--no-preserve-root(?:\s|$)/,
  },
  {
    id: 'fork-bomb',
    description: 'a fork bomb (a command that copies itself until the machine freezes)',
    pattern: /^[\w:.-]+\s*\(\s*\)\s*\{\s*[\w:.-]+\s*\|\s*[\w:.-]+\s*&\s*;?\s*\}|^(?:perl|ruby)\s.*\bfork\s+while\s+fork\b/,
  },
  {
    id: 'format-device',
    description: 'formatting or wiping a disk device (mkfs, wipefs, blkdiscard /dev/…)',
    pattern: /^(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|mkswap|wipefs|blkdiscard)\s(?:.*\s)?\/dev\//,
  },
  {
    id: 'dd-whole-disk',
    description: 'overwriting a whole disk (dd of=/dev/sda)',
    pattern: new RegExp(String.raw`^dd\s(?:.*\s)?of=${WHOLE_DISK}(?:\s|$)`),
  },
  {
    id: 'redirect-to-disk',
    description: 'overwriting a whole disk (> /dev/sda, tee, cp or shred onto /dev/sda)',
    pattern: new RegExp(String.raw`^>>?\s+${WHOLE_DISK}$|^tee\s(?:.*\s)?${WHOLE_DISK}(?:\s|$)|^cp\s(?:.*\s)?${WHOLE_DISK}$|^shred\s(?:.*\s)?${WHOLE_DISK}(?:\s|$)`),
  },
  {
    id: 'recursive-permissions-root',
    description: 'changing permissions or owner of every file on the system (chmod -R 777 /, chown -R … /)',
    pattern: new RegExp(
      String.raw`^(?:chmod|chown|chgrp)\s(?:.*\s)?${R}\s(?:.*\s)?\/+\*?(?:\s|$)|^(?:chmod|chown|chgrp)\s(?:.*\s)?\/+\*?\s(?:.*\s)?${R}(?:\s|$)`,
    ),
  },
  {
    id: 'kill-every-process',
    description: 'killing every process on the machine (kill -9 -1)',
    pattern: /^kill\s+(?:-9|-kill|-sigkill|-s\s+(?:9|kill|sigkill)|-n\s+9)(?:\s+--)?\s+-1$/,
  },
];
