
use builtin;
use str;

set edit:completion:arg-completer[sesstree] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'sesstree'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'sesstree'= {
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand log 'Show the path from the root to REV (default `@`), newest first'
            cand tree 'Show the whole tree as the agent''s tree selector draws it'
            cand context 'Show the context the model would get from REV (default `@`)'
            cand show 'Show one entry in full, as `git show` shows a commit'
            cand checkout 'Move the leaf to REV, as the agent''s /tree navigation does'
            cand reflog 'Show the moves and branch summaries the file holds, newest first'
            cand fork 'Fork a new session file from the history before a user message'
            cand branch 'Fork a new session file from the history before a user message'
            cand stats 'Count entries, branches, labels and token usage of one or many files'
            cand label 'Set, remove or list entry labels'
            cand name 'Show or set the session''s name'
            cand humanize-title 'Turn plan titles into session names, as plan approval does'
            cand migrate 'Bring session files to the current format (version 3)'
            cand fsck 'Check session files for damage, or write a repaired copy of one'
            cand ls 'List session files, newest first'
            cand grep 'Search the text of sessions, knowing where each hit sits in its tree'
            cand diff 'Show what two branches did differently, from their common ancestor'
            cand export 'Export the whole tree as one self-contained HTML page, or as Markdown'
            cand prune 'Remove branches off the active path, or put removed ones back'
            cand import 'Make an oh-my-pi or pi session of a Claude Code or Codex transcript'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sesstree;log'= {
            cand -n 'Show at most N entries'
            cand --max-count 'Show at most N entries'
            cand --filter 'Which entries to show'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --reverse 'Oldest first (with -n: the newest N, oldest first, as `git log -n N --reverse`)'
            cand --raw 'Print the original JSONL lines instead'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;tree'= {
            cand --filter 'Which entries to show'
            cand --search 'Show only entries matching every word (case-insensitive). With -i: the initial search'
            cand --leaf 'Draw the tree as if REV were the current leaf'
            cand --order 'Order of branches: `active` puts the branch holding the leaf first; `file` keeps the reference''s order (roots in file order, children by timestamp)'
            cand --summarizer 'With -i: the command that writes the summary asked for with Shift+Enter, as for `checkout --summarize`'
            cand --hooks-dir 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)'
            cand --hook-timeout 'Stop a hook that runs longer than SECS seconds, and cancel'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand -i 'Open the tree as a full-screen selector to move, search, label and check out'
            cand --interactive 'Open the tree as a full-screen selector to move, search, label and check out'
            cand --fuzzy 'Match search words as subsequences, as the agent''s selector does (always so with -i)'
            cand --ascii 'Draw with ASCII instead of box-drawing characters'
            cand --include-archived 'Show archived subtrees too'
            cand --no-hooks 'Run no hooks'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;context'= {
            cand --flavor 'Whose templates and message shapes apply'
            cand --format 'Text output format (ignored with --json)'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --agent-messages 'Show the messages before conversion to the model''s roles (branchSummary, compactionSummary, custom, ...)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;show'= {
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --raw 'Print the original JSONL line, byte for byte'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;checkout'= {
            cand --summary 'Summary of the abandoned branch, stored at the destination as given'
            cand --summary-file 'Read the summary from a file (`-` for standard input)'
            cand --summarizer 'The command that summarizes: it reads the abandoned branch as a transcript plus instructions on stdin and prints the summary (run with `sh -c`, on Windows `cmd /C`)'
            cand --instructions 'Extra instructions for the summarizer, appended to the default ones'
            cand --label 'Label the summary entry, or REV when there is no summary (trimmed as `label` trims it; a blank TEXT labels nothing)'
            cand --dialect 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. It picks how the summarizer''s summary lists the files (oh-my-pi''s `<files>` block, pi''s `<read-files>`/`<modified-files>`) and what the branch_summary''s fromId names (pi: the leaf being left; oh-my-pi: the new leaf)'
            cand --hooks-dir 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)'
            cand --hook-timeout 'Stop a hook that runs longer than SECS seconds, and cancel'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --summarize 'Have the summarizer (or the session_before_tree hook) write the summary'
            cand --replace-instructions 'Use --instructions instead of the default instructions'
            cand --dry-run 'Print the entries that would be appended; write nothing and run no hooks'
            cand --no-hooks 'Run no hooks'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;reflog'= {
            cand -n 'Show at most N moves'
            cand --max-count 'Show at most N moves'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;fork'= {
            cand --at 'Fork the path from the root to REV inclusive, whatever REV''s type (pi''s fork at an entry)'
            cand -o 'Write the new file to PATH (`-` for standard output) instead of next to the source'
            cand --output 'Write the new file to PATH (`-` for standard output) instead of next to the source'
            cand --dialect 'Fork as this agent does (pi: no name carried, compactions re-pointed past dropped labels), whatever the file looks like'
            cand --hooks-dir 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)'
            cand --hook-timeout 'Stop a hook that runs longer than SECS seconds, and cancel'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --force 'Overwrite an existing file at PATH'
            cand --no-hooks 'Run no hooks'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;branch'= {
            cand --at 'Fork the path from the root to REV inclusive, whatever REV''s type (pi''s fork at an entry)'
            cand -o 'Write the new file to PATH (`-` for standard output) instead of next to the source'
            cand --output 'Write the new file to PATH (`-` for standard output) instead of next to the source'
            cand --dialect 'Fork as this agent does (pi: no name carried, compactions re-pointed past dropped labels), whatever the file looks like'
            cand --hooks-dir 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)'
            cand --hook-timeout 'Stop a hook that runs longer than SECS seconds, and cancel'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --force 'Overwrite an existing file at PATH'
            cand --no-hooks 'Run no hooks'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;stats'= {
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --bytes 'Where the bytes are instead: by entry type, inline images, tool output, the active path and the rest (what `prune --abandoned` would remove at most)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;label'= {
            cand --dialect 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing `label` writes differs between them'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --clear 'Remove the label of REV'
            cand --list 'List the labels in effect instead'
            cand --dry-run 'Print the line that would be appended, and write nothing'
            cand --force 'Move the label here when another entry carries it, or set a label that is or looks like the start of an id (without it, both are refused)'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;name'= {
            cand --source 'Who sets the name'
            cand --from-plan 'Name the session after a plan title, as plan approval does (only if it has no name)'
            cand --trigger 'A free-form `trigger` recorded in the `title_change` entry (oh-my-pi files)'
            cand --dialect 'Store the name as this agent does, whatever the file looks like'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --dry-run 'Print the line that would be appended, and write nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;humanize-title'= {
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;migrate'= {
            cand -o 'Write the result to PATH instead of replacing the file (also for a current file)'
            cand --output 'Write the result to PATH instead of replacing the file (also for a current file)'
            cand --dialect 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing `migrate` writes differs between them'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --no-backup 'Do not keep the original as FILE.bak'
            cand --check 'Only tell whether a migration is needed (exit 1 if so); write nothing'
            cand --dry-run 'Print the migrated file to stdout; write nothing'
            cand --force 'Overwrite an existing -o PATH or FILE.bak'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;fsck'= {
            cand -o 'Where --repair writes the copy (`-` for standard output)'
            cand --output 'Where --repair writes the copy (`-` for standard output)'
            cand --cwd 'The working directory recorded in a header that --repair restores'
            cand --dialect 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing a repair writes differs between them'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --repair 'Write a repaired copy of the file to -o PATH'
            cand --force 'Let --repair overwrite an existing -o PATH'
            cand -q 'Print the problems only: no `FILE: ok` for a sound file (with --json, no object for it)'
            cand --quiet 'Print the problems only: no `FILE: ok` for a sound file (with --json, no object for it)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;ls'= {
            cand --cwd 'Only the sessions of the project in this directory'
            cand --agent 'Only the sessions of this agent: a Claude Code or Codex transcript, or a file in oh-my-pi''s or pi''s sessions directory'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand -0 'Print only the paths, each ended by a NUL byte (for `xargs -0`)'
            cand --null 'Print only the paths, each ended by a NUL byte (for `xargs -0`)'
            cand --tree 'Draw the sessions as a tree: each under the session it came from'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;grep'= {
            cand -e 'A pattern to match; give it more than once for any of several'
            cand --regexp 'A pattern to match; give it more than once for any of several'
            cand -m 'Stop after NUM matching entries in each file'
            cand --max-count 'Stop after NUM matching entries in each file'
            cand --role 'Only entries of this role (again for several)'
            cand --tool 'Only calls to this tool and their results (again for several; `bash` also matches the shell executions run from the prompt)'
            cand --type 'Only entries of this type (again for several)'
            cand --since 'Only entries stamped at or after WHEN: a date (2026-11-30, local midnight), a time (2026-11-30T14:00, 2026-11-30T14:00:00Z) or a span back from now (7d, 12h, 2w)'
            cand --until 'Only entries stamped before WHEN (as --since)'
            cand --cwd 'Only the sessions of the project in this directory'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand -F 'Match the patterns as fixed strings'
            cand --fixed-strings 'Match the patterns as fixed strings'
            cand -i 'Ignore letter case'
            cand --ignore-case 'Ignore letter case'
            cand -S 'Ignore letter case unless a pattern holds an upper-case letter'
            cand --smart-case 'Ignore letter case unless a pattern holds an upper-case letter'
            cand -w 'Match whole words only'
            cand --word-regexp 'Match whole words only'
            cand -l 'Print only the paths of files with a match'
            cand --files-with-matches 'Print only the paths of files with a match'
            cand -c 'Print the number of matching entries of each file with a match'
            cand --count 'Print the number of matching entries of each file with a match'
            cand --here 'Only the current project''s sessions: those of the current directory, else of the nearest parent directory that has any (where a command without -f finds its session)'
            cand --active-only 'Only entries on the path from the root to the leaf'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;diff'= {
            cand --filter 'Which entries the rows show (as in `log`)'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --stat 'Show only the summary of each side'
            cand --context 'Show a unified diff of the context the model gets at each side''s end'
            cand --exit-code 'Exit with 1 when the sides differ and 0 when they do not, as `git diff --exit-code` (with --context, when the two contexts differ)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;export'= {
            cand -o 'Where to write (its path is printed); `-` for standard output'
            cand --output 'Where to write (its path is printed); `-` for standard output'
            cand --format 'What to write. Without it: Markdown for an -o FILE ending in .md or .markdown, else HTML'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --active-only 'Only the path from the root to REV, without the other branches'
            cand --force 'Overwrite an existing file'
            cand --redact 'Replace API-key-shaped strings (sk-…, ghp_…, AKIA…, JWTs, Bearer tokens…) with `[REDACTED]` and the home directory with ~'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;prune'= {
            cand --older-than 'With --abandoned: only branches whose newest entry is older than SPAN (`30d`, `12h`, or a date: 2026-11-30)'
            cand --dialect 'With --images: whose session the file is (omp or pi), when neither its contents nor its directory say'
            cand --restore 'Put back the entries a `--save` wrote to FILE'
            cand --save 'Append every removed line to FILE (made with the session''s header when new)'
            cand -o 'Write the result to PATH instead of replacing the file'
            cand --output 'Write the result to PATH instead of replacing the file'
            cand -f 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --file 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --abandoned 'Remove every branch off the active path'
            cand --markers 'Remove the empty move markers of `checkout` that nothing hangs below'
            cand --images 'Move the inline base64 images of an oh-my-pi session into oh-my-pi''s blob store, as oh-my-pi itself writes them (`blob:sha256:` references); refused for pi sessions'
            cand --no-backup 'Do not keep the original as FILE.bak'
            cand --dry-run 'Print what would be removed; write nothing'
            cand --force 'Overwrite an existing -o PATH or FILE.bak'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;import'= {
            cand --to 'The agent whose session to write'
            cand -o 'Write the new file to PATH instead of the agent''s sessions directory'
            cand --output 'Write the new file to PATH instead of the agent''s sessions directory'
            cand --session 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)'
            cand --color 'When to colour the output'
            cand --force 'Overwrite an existing file at PATH'
            cand --even-if-open 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
            cand --json 'Print machine-readable JSON (JSON Lines for streams of entries)'
            cand --strict 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
            cand --no-pager 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
            cand --utc 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sesstree;help'= {
            cand log 'Show the path from the root to REV (default `@`), newest first'
            cand tree 'Show the whole tree as the agent''s tree selector draws it'
            cand context 'Show the context the model would get from REV (default `@`)'
            cand show 'Show one entry in full, as `git show` shows a commit'
            cand checkout 'Move the leaf to REV, as the agent''s /tree navigation does'
            cand reflog 'Show the moves and branch summaries the file holds, newest first'
            cand fork 'Fork a new session file from the history before a user message'
            cand stats 'Count entries, branches, labels and token usage of one or many files'
            cand label 'Set, remove or list entry labels'
            cand name 'Show or set the session''s name'
            cand humanize-title 'Turn plan titles into session names, as plan approval does'
            cand migrate 'Bring session files to the current format (version 3)'
            cand fsck 'Check session files for damage, or write a repaired copy of one'
            cand ls 'List session files, newest first'
            cand grep 'Search the text of sessions, knowing where each hit sits in its tree'
            cand diff 'Show what two branches did differently, from their common ancestor'
            cand export 'Export the whole tree as one self-contained HTML page, or as Markdown'
            cand prune 'Remove branches off the active path, or put removed ones back'
            cand import 'Make an oh-my-pi or pi session of a Claude Code or Codex transcript'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sesstree;help;log'= {
        }
        &'sesstree;help;tree'= {
        }
        &'sesstree;help;context'= {
        }
        &'sesstree;help;show'= {
        }
        &'sesstree;help;checkout'= {
        }
        &'sesstree;help;reflog'= {
        }
        &'sesstree;help;fork'= {
        }
        &'sesstree;help;stats'= {
        }
        &'sesstree;help;label'= {
        }
        &'sesstree;help;name'= {
        }
        &'sesstree;help;humanize-title'= {
        }
        &'sesstree;help;migrate'= {
        }
        &'sesstree;help;fsck'= {
        }
        &'sesstree;help;ls'= {
        }
        &'sesstree;help;grep'= {
        }
        &'sesstree;help;diff'= {
        }
        &'sesstree;help;export'= {
        }
        &'sesstree;help;prune'= {
        }
        &'sesstree;help;import'= {
        }
        &'sesstree;help;help'= {
        }
    ]
    $completions[$command]
}
