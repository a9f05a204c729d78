# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sesstree_global_optspecs
    string join \n f/file= session= json strict no-pager utc color= even-if-open h/help V/version
end

function __fish_sesstree_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_sesstree_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_sesstree_using_subcommand
    set -l cmd (__fish_sesstree_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c sesstree -n "__fish_sesstree_needs_command" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_needs_command" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_needs_command" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_needs_command" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_needs_command" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_needs_command" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_needs_command" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_needs_command" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_needs_command" -s V -l version -d 'Print version'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "log" -d 'Show the path from the root to REV (default `@`), newest first'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "tree" -d 'Show the whole tree as the agent\'s tree selector draws it'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "context" -d 'Show the context the model would get from REV (default `@`)'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "show" -d 'Show one entry in full, as `git show` shows a commit'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "checkout" -d 'Move the leaf to REV, as the agent\'s /tree navigation does'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "reflog" -d 'Show the moves and branch summaries the file holds, newest first'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "fork" -d 'Fork a new session file from the history before a user message'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "branch" -d 'Fork a new session file from the history before a user message'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "stats" -d 'Count entries, branches, labels and token usage of one or many files'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "label" -d 'Set, remove or list entry labels'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "name" -d 'Show or set the session\'s name'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "humanize-title" -d 'Turn plan titles into session names, as plan approval does'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "migrate" -d 'Bring session files to the current format (version 3)'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "fsck" -d 'Check session files for damage, or write a repaired copy of one'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "ls" -d 'List session files, newest first'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "grep" -d 'Search the text of sessions, knowing where each hit sits in its tree'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "diff" -d 'Show what two branches did differently, from their common ancestor'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "export" -d 'Export the whole tree as one self-contained HTML page, or as Markdown'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "prune" -d 'Remove branches off the active path, or put removed ones back'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "import" -d 'Make an oh-my-pi or pi session of a Claude Code or Codex transcript'
complete -c sesstree -n "__fish_sesstree_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -s n -l max-count -d 'Show at most N entries' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l filter -d 'Which entries to show' -r -f -a "default\t'Everything except bookkeeping entries (labels, model and thinking changes, custom…)'
no-tools\t'`default` without tool results'
user-only\t'User requests only'
labeled-only\t'Labelled entries only'
all\t'Everything'"
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l reverse -d 'Oldest first (with -n: the newest N, oldest first, as `git log -n N --reverse`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l raw -d 'Print the original JSONL lines instead'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l filter -d 'Which entries to show' -r -f -a "default\t'Everything except bookkeeping entries (labels, model and thinking changes, custom…)'
no-tools\t'`default` without tool results'
user-only\t'User requests only'
labeled-only\t'Labelled entries only'
all\t'Everything'"
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l search -d 'Show only entries matching every word (case-insensitive). With -i: the initial search' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l leaf -d 'Draw the tree as if REV were the current leaf' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l order -d 'Order of branches: `active` puts the branch holding the leaf first; `file` keeps the reference\'s order (roots in file order, children by timestamp)' -r -f -a "active\t'The branch holding the leaf first'
file\t'Roots in file order, children by timestamp'"
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l summarizer -d 'With -i: the command that writes the summary asked for with Shift+Enter, as for `checkout --summarize`' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l hooks-dir -d 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\\sesstree\\hooks, and a hook\'s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l hook-timeout -d 'Stop a hook that runs longer than SECS seconds, and cancel' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -s i -l interactive -d 'Open the tree as a full-screen selector to move, search, label and check out'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l fuzzy -d 'Match search words as subsequences, as the agent\'s selector does (always so with -i)'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l ascii -d 'Draw with ASCII instead of box-drawing characters'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l include-archived -d 'Show archived subtrees too'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l no-hooks -d 'Run no hooks'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand tree" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l flavor -d 'Whose templates and message shapes apply' -r -f -a "omp\t'oh-my-pi: templates, developer-role custom messages, post-passes'
pi\t'pi-mono: prefix/suffix wrappers, user-role custom messages, a single model'"
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l format -d 'Text output format (ignored with --json)' -r -f -a "text\t'Readable, one block per message'
markdown\t'A Markdown transcript to share'"
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l agent-messages -d 'Show the messages before conversion to the model\'s roles (branchSummary, compactionSummary, custom, ...)'
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand context" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l raw -d 'Print the original JSONL line, byte for byte'
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l summary -d 'Summary of the abandoned branch, stored at the destination as given' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l summary-file -d 'Read the summary from a file (`-` for standard input)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l summarizer -d 'The command that summarizes: it reads the abandoned branch as a transcript plus instructions on stdin and prints the summary (run with `sh -c`, on Windows `cmd /C`)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l instructions -d 'Extra instructions for the summarizer, appended to the default ones' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l label -d 'Label the summary entry, or REV when there is no summary (trimmed as `label` trims it; a blank TEXT labels nothing)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l dialect -d 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. It picks how the summarizer\'s summary lists the files (oh-my-pi\'s `<files>` block, pi\'s `<read-files>`/`<modified-files>`) and what the branch_summary\'s fromId names (pi: the leaf being left; oh-my-pi: the new leaf)' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l hooks-dir -d 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\\sesstree\\hooks, and a hook\'s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l hook-timeout -d 'Stop a hook that runs longer than SECS seconds, and cancel' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l summarize -d 'Have the summarizer (or the session_before_tree hook) write the summary'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l replace-instructions -d 'Use --instructions instead of the default instructions'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l dry-run -d 'Print the entries that would be appended; write nothing and run no hooks'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l no-hooks -d 'Run no hooks'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand checkout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -s n -l max-count -d 'Show at most N moves' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand reflog" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l at -d 'Fork the path from the root to REV inclusive, whatever REV\'s type (pi\'s fork at an entry)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -s o -l output -d 'Write the new file to PATH (`-` for standard output) instead of next to the source' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l dialect -d 'Fork as this agent does (pi: no name carried, compactions re-pointed past dropped labels), whatever the file looks like' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l hooks-dir -d 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\\sesstree\\hooks, and a hook\'s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l hook-timeout -d 'Stop a hook that runs longer than SECS seconds, and cancel' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l force -d 'Overwrite an existing file at PATH'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l no-hooks -d 'Run no hooks'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand fork" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l at -d 'Fork the path from the root to REV inclusive, whatever REV\'s type (pi\'s fork at an entry)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -s o -l output -d 'Write the new file to PATH (`-` for standard output) instead of next to the source' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l dialect -d 'Fork as this agent does (pi: no name carried, compactions re-pointed past dropped labels), whatever the file looks like' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l hooks-dir -d 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\\sesstree\\hooks, and a hook\'s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l hook-timeout -d 'Stop a hook that runs longer than SECS seconds, and cancel' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l force -d 'Overwrite an existing file at PATH'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l no-hooks -d 'Run no hooks'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand branch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l bytes -d 'Where the bytes are instead: by entry type, inline images, tool output, the active path and the rest (what `prune --abandoned` would remove at most)'
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l dialect -d 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing `label` writes differs between them' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l clear -d 'Remove the label of REV'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l list -d 'List the labels in effect instead'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l dry-run -d 'Print the line that would be appended, and write nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l force -d 'Move the label here when another entry carries it, or set a label that is or looks like the start of an id (without it, both are refused)'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand label" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l source -d 'Who sets the name' -r -f -a "auto\t'Generated, not typed by the user; never replaces a user name'
user\t'Chosen by the user (the default)'"
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l from-plan -d 'Name the session after a plan title, as plan approval does (only if it has no name)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l trigger -d 'A free-form `trigger` recorded in the `title_change` entry (oh-my-pi files)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l dialect -d 'Store the name as this agent does, whatever the file looks like' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l dry-run -d 'Print the line that would be appended, and write nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand name" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand humanize-title" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -s o -l output -d 'Write the result to PATH instead of replacing the file (also for a current file)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l dialect -d 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing `migrate` writes differs between them' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l no-backup -d 'Do not keep the original as FILE.bak'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l check -d 'Only tell whether a migration is needed (exit 1 if so); write nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l dry-run -d 'Print the migrated file to stdout; write nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l force -d 'Overwrite an existing -o PATH or FILE.bak'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand migrate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -s o -l output -d 'Where --repair writes the copy (`-` for standard output)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l cwd -d 'The working directory recorded in a header that --repair restores' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l dialect -d 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing a repair writes differs between them' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l repair -d 'Write a repaired copy of the file to -o PATH'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l force -d 'Let --repair overwrite an existing -o PATH'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -s q -l quiet -d 'Print the problems only: no `FILE: ok` for a sound file (with --json, no object for it)'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand fsck" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l cwd -d 'Only the sessions of the project in this directory' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l agent -d 'Only the sessions of this agent: a Claude Code or Codex transcript, or a file in oh-my-pi\'s or pi\'s sessions directory' -r -f -a "claude\t'Claude Code\'s transcripts'
codex\t'Codex\'s rollouts'
omp\t'oh-my-pi\'s sessions'
pi\t'pi\'s sessions'"
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -s 0 -l null -d 'Print only the paths, each ended by a NUL byte (for `xargs -0`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l tree -d 'Draw the sessions as a tree: each under the session it came from'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s e -l regexp -d 'A pattern to match; give it more than once for any of several' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s m -l max-count -d 'Stop after NUM matching entries in each file' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l role -d 'Only entries of this role (again for several)' -r -f -a "user\t'The user\'s messages'
assistant\t'The assistant\'s messages (text, thinking, tool calls)'
tool\t'Tool results'
bash\t'Shell commands run from the prompt (`!cmd`) and their output'"
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l tool -d 'Only calls to this tool and their results (again for several; `bash` also matches the shell executions run from the prompt)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l type -d 'Only entries of this type (again for several)' -r -f -a "message\t'Messages'
compaction\t'Compactions (their summaries)'
branch-summary\t'Branch summaries'
custom-message\t'Extension messages'"
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l since -d 'Only entries stamped at or after WHEN: a date (2026-11-30, local midnight), a time (2026-11-30T14:00, 2026-11-30T14:00:00Z) or a span back from now (7d, 12h, 2w)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l until -d 'Only entries stamped before WHEN (as --since)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l cwd -d 'Only the sessions of the project in this directory' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s F -l fixed-strings -d 'Match the patterns as fixed strings'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s i -l ignore-case -d 'Ignore letter case'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s S -l smart-case -d 'Ignore letter case unless a pattern holds an upper-case letter'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s w -l word-regexp -d 'Match whole words only'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s l -l files-with-matches -d 'Print only the paths of files with a match'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s c -l count -d 'Print the number of matching entries of each file with a match'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l here -d 'Only the current project\'s sessions: those of the current directory, else of the nearest parent directory that has any (where a command without -f finds its session)'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l active-only -d 'Only entries on the path from the root to the leaf'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l filter -d 'Which entries the rows show (as in `log`)' -r -f -a "default\t'Everything except bookkeeping entries (labels, model and thinking changes, custom…)'
no-tools\t'`default` without tool results'
user-only\t'User requests only'
labeled-only\t'Labelled entries only'
all\t'Everything'"
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l stat -d 'Show only the summary of each side'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l context -d 'Show a unified diff of the context the model gets at each side\'s end'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l exit-code -d 'Exit with 1 when the sides differ and 0 when they do not, as `git diff --exit-code` (with --context, when the two contexts differ)'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -s o -l output -d 'Where to write (its path is printed); `-` for standard output' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l format -d 'What to write. Without it: Markdown for an -o FILE ending in .md or .markdown, else HTML' -r -f -a "html\t'One self-contained page'
markdown\t'Nested sections, for GitHub and editors'"
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l active-only -d 'Only the path from the root to REV, without the other branches'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l force -d 'Overwrite an existing file'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l redact -d 'Replace API-key-shaped strings (sk-…, ghp_…, AKIA…, JWTs, Bearer tokens…) with `[REDACTED]` and the home directory with ~'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l older-than -d 'With --abandoned: only branches whose newest entry is older than SPAN (`30d`, `12h`, or a date: 2026-11-30)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l dialect -d 'With --images: whose session the file is (omp or pi), when neither its contents nor its directory say' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l restore -d 'Put back the entries a `--save` wrote to FILE' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l save -d 'Append every removed line to FILE (made with the session\'s header when new)' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -s o -l output -d 'Write the result to PATH instead of replacing the file' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -s f -l file -d 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory\'s sessions in the agents\' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory\'s, as git looks upward. `ls` marks it' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l abandoned -d 'Remove every branch off the active path'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l markers -d 'Remove the empty move markers of `checkout` that nothing hangs below'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l images -d 'Move the inline base64 images of an oh-my-pi session into oh-my-pi\'s blob store, as oh-my-pi itself writes them (`blob:sha256:` references); refused for pi sessions'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l no-backup -d 'Do not keep the original as FILE.bak'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l dry-run -d 'Print what would be removed; write nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l force -d 'Overwrite an existing -o PATH or FILE.bak'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l to -d 'The agent whose session to write' -r -f -a "omp\t'oh-my-pi: title slot and `title_change`'
pi\t'pi: `session_info`, no title slot'"
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -s o -l output -d 'Write the new file to PATH instead of the agent\'s sessions directory' -r -F
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l session -d 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)' -r
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l color -d 'When to colour the output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l force -d 'Overwrite an existing file at PATH'
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l even-if-open -d 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session\'s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing'
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l json -d 'Print machine-readable JSON (JSON Lines for streams of entries)'
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l strict -d 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning'
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l no-pager -d 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -l utc -d 'Show times in UTC instead of the local time zone (`TZ`, else the system\'s)'
complete -c sesstree -n "__fish_sesstree_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "log" -d 'Show the path from the root to REV (default `@`), newest first'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "tree" -d 'Show the whole tree as the agent\'s tree selector draws it'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "context" -d 'Show the context the model would get from REV (default `@`)'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "show" -d 'Show one entry in full, as `git show` shows a commit'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "checkout" -d 'Move the leaf to REV, as the agent\'s /tree navigation does'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "reflog" -d 'Show the moves and branch summaries the file holds, newest first'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "fork" -d 'Fork a new session file from the history before a user message'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "stats" -d 'Count entries, branches, labels and token usage of one or many files'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "label" -d 'Set, remove or list entry labels'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "name" -d 'Show or set the session\'s name'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "humanize-title" -d 'Turn plan titles into session names, as plan approval does'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "migrate" -d 'Bring session files to the current format (version 3)'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "fsck" -d 'Check session files for damage, or write a repaired copy of one'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "ls" -d 'List session files, newest first'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "grep" -d 'Search the text of sessions, knowing where each hit sits in its tree'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "diff" -d 'Show what two branches did differently, from their common ancestor'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "export" -d 'Export the whole tree as one self-contained HTML page, or as Markdown'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "prune" -d 'Remove branches off the active path, or put removed ones back'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "import" -d 'Make an oh-my-pi or pi session of a Claude Code or Codex transcript'
complete -c sesstree -n "__fish_sesstree_using_subcommand help; and not __fish_seen_subcommand_from log tree context show checkout reflog fork stats label name humanize-title migrate fsck ls grep diff export prune import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
