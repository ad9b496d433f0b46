import type { DangerPattern } from './types.js';

// Each pattern is tested against every lower-cased segment of normalizeCommand: words separated by one space,
// quotes removed, the program first (sudo, env, nohup, xargs… and its path stripped), redirections as segments of
// their own (`> /dev/sda`). Patterns are anchored at the segment's start (`^`) wherever they can be: on V8's
// linear-time engine an anchored pattern gives up at once on segments that start otherwise, while an unanchored
// one walks every segment to its end. `(?:\s|$)` ends a word. No lookaround, no backreferences. Long options are
// matched with the abbreviations GNU tools accept (`rm --rec` is `rm --recursive`).

/** Commands that wait for the owner's approval before they run. Ids are stable ("always allow" rules store them). */
export const DANGER_PATTERNS: readonly DangerPattern[] = [
  {
    id: 'recursive-delete',
    description: 'recursive delete (rm -r)',
    pattern: /^rm\s(?:.*\s)?(?:-[a-z]*r[a-z]*|--r(?:e(?:c(?:u(?:r(?:s(?:i(?:ve?)?)?)?)?)?)?)?)(?:\s|$)/,
  },
  {
    id: 'find-delete',
    description: 'delete every file a search finds (find -delete)',
    pattern: /^find\s(?:.*\s)?-delete(?:\s|$)/,
  },
  {
    id: 'find-exec-rm',
    description: 'delete every file a search finds (find -exec rm)',
    pattern: /^find\s(?:.*\s)?-(?:exec|execdir|ok|okdir)\s+(?:\S*\/)?rm(?:\s|$)/,
  },
  {
    id: 'xargs-rm',
    description: 'delete files listed by another command (xargs rm)',
    pattern: /^xargs\s(?:.*\s)?(?:\S*\/)?rm(?:\s|$)|^[^|]*\|\s*rm(?:\s|$)/,
  },
  {
    id: 'shred-files',
    description: 'destroy file contents beyond recovery (shred)',
    pattern: /^(?:shred|wipe|srm)(?:\s|$)/,
  },
  {
    id: 'world-writable',
    description: 'make files writable by everyone (chmod 777 / o+w)',
    pattern: /^chmod\s(?:.*\s)?(?:[0-7]?[0-7][0-7][2367]|[ugoa]*[oa][ugoa]*[+=][rwxst]*w[rwxst]*)(?:\s|$)/,
  },
  {
    id: 'recursive-permissions-system',
    description: 'change owner or permissions of a whole system or home folder (chmod/chown -R on /, /etc, /usr, ~…)',
    pattern:
      /^(?:chmod|chown|chgrp)\s(?:.*\s)?(?:-[a-z]*r[a-z]*|--r(?:e(?:c(?:u(?:r(?:s(?:i(?:ve?)?)?)?)?)?)?)?)\s(?:.*\s)?(?:\/(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|var|opt|root|home|srv|sys|proc|dev)?|~|\$\{?home\}?)\/?(?:\s|$)/,
  },
  {
    id: 'format-filesystem',
    description: 'format a disk or partition (mkfs)',
    pattern: /^(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|mkswap|wipefs|blkdiscard)(?:\s|$)/,
  },
  {
    id: 'dd-to-device',
    description: 'write raw data onto a disk (dd of=/dev/…)',
    pattern: /^dd\s(?:.*\s)?of=\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|loop|md|dm-|mapper\/|sr|fd)/,
  },
  {
    id: 'write-block-device',
    description: 'write directly onto a disk device (> /dev/sda, tee or cp to a disk)',
    pattern:
      /^>>?\s+\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|mapper\/)|^(?:tee|cp|shred)\s(?:.*\s)?\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|mapper\/)/,
  },
  {
    id: 'pipe-to-shell',
    description: 'download a script and run it at once (curl … | sh)',
    pattern:
      /^(?:curl|wget|fetch)\s.*\|\s*(?:(?:ba|da|z|k|fi)?sh|python[0-9.]*|perl|ruby|node)(?:\s|$)/,
  },
  {
    id: 'pipe-into-shell',
    description: 'run text from another command as a script (… | sh)',
    pattern: /^[^|]*\|\s*(?:ba|da|z|k|fi)?sh(?:\s+-\S+)*$/,
  },
  {
    id: 'computed-command',
    description: 'a command whose name is only known when it runs ($VAR, $(…))',
    pattern: /^[^\s=]*\$\(|^[^\s=/]*\$[^\s/]*(?:\s|$)/,
  },
  {
    id: 'shell-from-download',
    description: 'run a downloaded script without saving it (bash <(curl …))',
    pattern: /^(?:(?:ba|da|z|k)?sh|source|\.)\s+(?:-\S+\s+)*(?:<\s*)?<\((?:\S*\/)?(?:curl|wget)\s|^(?:source|\.)\s+\/dev\/(?:stdin|fd\/0)(?:\s|$)/,
  },
  {
    id: 'shell-c-download',
    description: 'run a downloaded script through sh -c or eval (sh -c "$(curl …)")',
    pattern:
      /^(?:(?:(?:ba|da|z|k)?sh|python[0-9.]*|perl|ruby|node)\s+(?:\S+\s+)*-[a-z]*[ce]|eval)\s+(?:\S+\s+)*\$\((?:\S*\/)?(?:curl|wget)\s/,
  },
  {
    id: 'sql-drop',
    description: 'delete a database table or a whole database (SQL DROP)',
    pattern: /\bdrop\s+(?:table|database|schema)\s+(?:if\s+exists\s+)?[\w.[`]/,
  },
  {
    id: 'sql-truncate',
    description: 'empty a database table (SQL TRUNCATE)',
    pattern: /\btruncate\s+(?:table\s+)?[a-z_[`][\w.`\]]*(?:\s|;|$)/,
  },
  {
    id: 'sql-delete-all',
    description: 'delete every row of a database table (SQL DELETE without WHERE)',
    pattern: /\bdelete\s+from\s+[\w.`[\]]+(?:\s+(?:as\s+)?\w+)?\s*;?$/,
  },
  {
    id: 'git-force-push',
    description: 'overwrite history on the git server (git push --force)',
    pattern: /^git\s(?:.*\s)?push\s(?:.*\s)?(?:--force(?:-with-lease|-if-includes)?(?:=\S*)?|-[a-z]*f[a-z]*|\+\S+)(?:\s|$)/,
  },
  {
    id: 'git-push-delete',
    description: 'delete branches or tags on the git server (git push --delete, :branch, --mirror)',
    pattern: /^git\s(?:.*\s)?push\s(?:.*\s)?(?:--delete|-d|--mirror|--prune|:\S+)(?:\s|$)/,
  },
  {
    id: 'git-reset-hard',
    description: 'throw away uncommitted changes (git reset --hard)',
    pattern: /^git\s(?:.*\s)?reset\s(?:.*\s)?--hard(?:\s|$)/,
  },
  {
    id: 'git-clean-force',
    description: 'delete untracked files (git clean -f)',
    pattern: /^git\s(?:.*\s)?clean\s(?:.*\s)?(?:-[a-z]*f[a-z]*|--force)(?:\s|$)/,
  },
  {
    id: 'shutdown-reboot',
    description: 'shut down or restart the machine',
    pattern:
      /^(?:shutdown|reboot|halt|poweroff)(?:\s|$)|^(?:init|telinit)\s+[06](?:\s|$)|^systemctl\s(?:.*\s)?(?:poweroff|reboot|halt|kexec|rescue|emergency)(?:\s|$)/,
  },
  {
    id: 'stop-service',
    description: 'stop or disable a system service (systemctl stop/disable/mask)',
    pattern: /^systemctl\s(?:.*\s)?(?:stop|disable|mask)\s/,
  },
  {
    id: 'kill-init',
    description: 'kill the system’s first process (pid 1), which brings the machine down',
    pattern: /^kill(?:\s+-\S+)*\s+1$|^(?:pkill|killall)\s(?:.*\s)?(?:init|systemd)$/,
  },
  {
    id: 'kill-all',
    description: 'kill many processes at once (kill -1, killall, pkill -9)',
    pattern: /^kill(?:\s+-\S+)*\s+-1$|^killall5?(?:\s|$)|^pkill\s(?:.*\s)?-(?:9|kill|sigkill)(?:\s|$)/,
  },
  {
    id: 'crontab-remove',
    description: 'delete all scheduled tasks (crontab -r)',
    pattern: /^crontab\s(?:.*\s)?-[a-z]*r/,
  },
  {
    id: 'crontab-install',
    description: 'replace all scheduled tasks, which then run unasked (crontab FILE, … | crontab -)',
    pattern: /^crontab(?:\s+[^\s<>|]\S*)*\s+(?:-|[^\s<>|-]\S*)$/,
  },
  {
    id: 'ssh-authorized-keys',
    description: 'change who can log in over SSH (authorized_keys)',
    pattern:
      /^>>?\s+\S*authorized_keys2?$|^(?:tee|cp|mv|ln|rm|install|truncate|chmod|chown|vi|vim|nano|emacs|ed|sed\s(?:.*\s)?-[a-z]*i\S*)\s(?:.*\s)?\S*authorized_keys2?(?:\s|$)/,
  },
  {
    id: 'read-env-file',
    description: 'read a secrets file (.env), also by copying, archiving or searching the folder that holds it',
    pattern:
      /^(?:cat|tac|nl|less|more|view|vi|vim|nano|emacs|ed|head|tail|grep|egrep|fgrep|rg|awk|sed|cut|paste|rev|sort|uniq|diff|cmp|comm|jq|yq|cp|scp|rsync|mv|xargs|base64|base32|xxd|od|hexdump|strings|bat|tar|zip|gzip|bzip2|xz|openssl|curl|wget|nc|source|\.)\s(?:.*\s)?(?:\S*[/@=])?\.env(?:\s|$)|^<\s+(?:\S*\/)?\.env$|^(?:cp|scp|rsync|tar|zip|7z|grep|egrep|rg|ag)\s(?:.*\s)?(?:\S*\.hermes|\S*hermes_home\}?|\.\.)\/?(?:\s|$)|^(?:python[0-9.]*|perl|ruby|node|php)\s(?:.*\s)?-[a-z]*[cer]\s(?:.*[^a-z0-9_$])?\.env(?:[^a-z0-9_.]|$)/,
  },
  {
    id: 'overwrite-env-file',
    description: 'overwrite, empty or delete a secrets file (.env)',
    pattern: /^>\s+(?:\S*\/)?\.env$|^(?:tee|truncate|ln|dd|rm|unlink|shred)\s(?:.*\s)?(?:\S*[/=])?\.env(?:\s|$)/,
  },
  {
    id: 'read-process-environment',
    description: 'read a running program’s environment, where secrets such as API keys live (/proc/…/environ)',
    pattern: /^\S+\s(?:.*\s)?\/proc\/[^\s/]+\/environ(?:\s|$)|^<\s+\/proc\/[^\s/]+\/environ$/,
  },
  {
    id: 'read-ssh-private-key',
    description: 'read an SSH private key (~/.ssh/id_…)',
    pattern: /^(?:cat|tac|less|more|head|tail|base64|xxd|od|hexdump|strings|cp|scp)\s(?:.*\s)?\S*\.ssh\/id_[a-z0-9_]+(?:\s|$)/,
  },
  {
    id: 'write-etc',
    description: 'change system settings (write into /etc)',
    pattern:
      /^>>?\s+\/etc\/|^tee\s(?:.*\s)?\/etc\/|^sed\s(?:.*\s)?-[a-z]*i\S*\s(?:.*\s)?\/etc\/|^(?:cp|mv|ln|install|rsync)\s(?:.*\s)?\/etc(?:\/\S*)?$/,
  },
  {
    id: 'overwrite-shell-startup',
    description: 'change a shell startup file (.bashrc, .profile…), which runs at every login',
    pattern:
      /^>>?\s+(?:\S*\/)?\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)$|^tee\s(?:.*\s)?(?:\S*\/)?\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)(?:\s|$)|^sed\s(?:.*\s)?-[a-z]*i\S*\s(?:.*\s)?(?:\S*\/)?\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)(?:\s|$)|^(?:cp|mv|ln)\s(?:.*\s)?(?:\S*\/)?\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)$/,
  },
  {
    id: 'overwrite-system-file',
    description: 'overwrite or empty a system file (in /usr, /bin, /boot, /var…)',
    pattern:
      /^>>?\s+\/(?:usr|bin|sbin|lib|lib32|lib64|boot|var|opt|srv|root)\/|^(?:tee|truncate)\s(?:.*\s)?\/(?:usr|bin|sbin|lib|lib32|lib64|boot|var|opt|srv|root)\//,
  },
  {
    id: 'firewall-flush',
    description: 'remove all firewall rules (iptables -F)',
    pattern: /^(?:iptables|ip6tables)\s(?:.*\s)?(?:-f|--flush|-x|--delete-chain)(?:\s|$)|^ufw\s+(?:disable|reset)(?:\s|$)|^nft\s+flush\s+ruleset/,
  },
  {
    id: 'move-to-dev-null',
    description: 'move files into /dev/null, which destroys them',
    pattern: /^mv\s(?:.*\s)?\/dev\/null$/,
  },
  {
    id: 'clear-history',
    description: 'erase the shell history',
    pattern: /^history\s(?:.*\s)?-[a-z]*c(?:\s|$)|^unset\s(?:.*\s)?histfile(?:\s|$)|^>>?\s+(?:\S*\/)?\.(?:bash|zsh|sh)_history$/,
  },
  {
    id: 'change-gateway-files',
    description: 'change the gateway’s own settings or store (config.yaml, state.db: approval rules, jobs, checks)',
    pattern:
      /^>>?\s+(?:\S*(?:\.hermes|hermes_home\}?)\/|(?:\S*\/)?\.\.\/)(?:\S*\/)?(?:config\.ya?ml|state\.db(?:-wal|-shm|-journal)?)$|^(?:tee|cp|mv|ln|install|rsync|truncate|rm|unlink|dd|shred|sed\s(?:.*\s)?-[a-z]*i\S*)\s(?:.*\s)?(?:of=)?(?:\S*(?:\.hermes|hermes_home\}?)\/|(?:\S*\/)?\.\.\/)(?:\S*\/)?(?:config\.ya?ml|state\.db(?:-wal|-shm|-journal)?)(?:\s|$)|^sqlite3\s(?:.*\s)?\S*state\.db(?:\s|$)/,
  },
  {
    id: 'hermes-admin',
    description: 'change who may use the gateway or what it runs (hermes pairing approve, cron add, profile, skills install…)',
    pattern:
      /^hermes\s(?:.*\s)?(?:pairing\s+approve|cron\s+(?:add|edit|run)|profile\s+(?:create|use|rename|delete)|skills\s+(?:install|delete)|memory\s+edit|gateway\s+(?:install|reload))(?:\s|$)/,
  },
  {
    id: 'script-deletes-or-runs-shell',
    description: 'a script that deletes files or runs shell commands (python -c, perl -e, a here-document, awk system()…)',
    pattern:
      /^(?:python[0-9.]*|perl|ruby|node|php)\s(?:.*\s)?(?:-[a-z]*[cer]|--eval|--print)\s.*(?:shutil\.rmtree|os\.system|os\.remove|os\.unlink|os\.rmdir|os\.removedirs|subprocess|child_process|rmsync|unlinksync|system\s*[("'q]|\bqx\W|unlink|rmtree|rm_rf|rm_r\b|remove_dir|exec\(|shell_exec|passthru)|^(?:shutil\.rmtree|os\.(?:system|remove|unlink|rmdir|removedirs)|subprocess\.|fileutils\.rm_r|fs\.rmsync|fs\.rmdirsync)|^[gmn]?awk\s.*\bsystem\(/,
  },
];
