
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'sesstree' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'sesstree'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'sesstree' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the path from the root to REV (default `@`), newest first')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show the whole tree as the agent''s tree selector draws it')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Show the context the model would get from REV (default `@`)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry in full, as `git show` shows a commit')
            [CompletionResult]::new('checkout', 'checkout', [CompletionResultType]::ParameterValue, 'Move the leaf to REV, as the agent''s /tree navigation does')
            [CompletionResult]::new('reflog', 'reflog', [CompletionResultType]::ParameterValue, 'Show the moves and branch summaries the file holds, newest first')
            [CompletionResult]::new('fork', 'fork', [CompletionResultType]::ParameterValue, 'Fork a new session file from the history before a user message')
            [CompletionResult]::new('branch', 'branch', [CompletionResultType]::ParameterValue, 'Fork a new session file from the history before a user message')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Count entries, branches, labels and token usage of one or many files')
            [CompletionResult]::new('label', 'label', [CompletionResultType]::ParameterValue, 'Set, remove or list entry labels')
            [CompletionResult]::new('name', 'name', [CompletionResultType]::ParameterValue, 'Show or set the session''s name')
            [CompletionResult]::new('humanize-title', 'humanize-title', [CompletionResultType]::ParameterValue, 'Turn plan titles into session names, as plan approval does')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Bring session files to the current format (version 3)')
            [CompletionResult]::new('fsck', 'fsck', [CompletionResultType]::ParameterValue, 'Check session files for damage, or write a repaired copy of one')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List session files, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search the text of sessions, knowing where each hit sits in its tree')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what two branches did differently, from their common ancestor')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Export the whole tree as one self-contained HTML page, or as Markdown')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove branches off the active path, or put removed ones back')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Make an oh-my-pi or pi session of a Claude Code or Codex transcript')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sesstree;log' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most N entries')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Show at most N entries')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Which entries to show')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Oldest first (with -n: the newest N, oldest first, as `git log -n N --reverse`)')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Print the original JSONL lines instead')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;tree' {
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Which entries to show')
            [CompletionResult]::new('--search', '--search', [CompletionResultType]::ParameterName, 'Show only entries matching every word (case-insensitive). With -i: the initial search')
            [CompletionResult]::new('--leaf', '--leaf', [CompletionResultType]::ParameterName, 'Draw the tree as if REV were the current leaf')
            [CompletionResult]::new('--order', '--order', [CompletionResultType]::ParameterName, 'Order of branches: `active` puts the branch holding the leaf first; `file` keeps the reference''s order (roots in file order, children by timestamp)')
            [CompletionResult]::new('--summarizer', '--summarizer', [CompletionResultType]::ParameterName, 'With -i: the command that writes the summary asked for with Shift+Enter, as for `checkout --summarize`')
            [CompletionResult]::new('--hooks-dir', '--hooks-dir', [CompletionResultType]::ParameterName, 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)')
            [CompletionResult]::new('--hook-timeout', '--hook-timeout', [CompletionResultType]::ParameterName, 'Stop a hook that runs longer than SECS seconds, and cancel')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Open the tree as a full-screen selector to move, search, label and check out')
            [CompletionResult]::new('--interactive', '--interactive', [CompletionResultType]::ParameterName, 'Open the tree as a full-screen selector to move, search, label and check out')
            [CompletionResult]::new('--fuzzy', '--fuzzy', [CompletionResultType]::ParameterName, 'Match search words as subsequences, as the agent''s selector does (always so with -i)')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw with ASCII instead of box-drawing characters')
            [CompletionResult]::new('--include-archived', '--include-archived', [CompletionResultType]::ParameterName, 'Show archived subtrees too')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'Run no hooks')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;context' {
            [CompletionResult]::new('--flavor', '--flavor', [CompletionResultType]::ParameterName, 'Whose templates and message shapes apply')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Text output format (ignored with --json)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--agent-messages', '--agent-messages', [CompletionResultType]::ParameterName, 'Show the messages before conversion to the model''s roles (branchSummary, compactionSummary, custom, ...)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;show' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Print the original JSONL line, byte for byte')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;checkout' {
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'Summary of the abandoned branch, stored at the destination as given')
            [CompletionResult]::new('--summary-file', '--summary-file', [CompletionResultType]::ParameterName, 'Read the summary from a file (`-` for standard input)')
            [CompletionResult]::new('--summarizer', '--summarizer', [CompletionResultType]::ParameterName, 'The command that summarizes: it reads the abandoned branch as a transcript plus instructions on stdin and prints the summary (run with `sh -c`, on Windows `cmd /C`)')
            [CompletionResult]::new('--instructions', '--instructions', [CompletionResultType]::ParameterName, 'Extra instructions for the summarizer, appended to the default ones')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Label the summary entry, or REV when there is no summary (trimmed as `label` trims it; a blank TEXT labels nothing)')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. It picks how the summarizer''s summary lists the files (oh-my-pi''s `<files>` block, pi''s `<read-files>`/`<modified-files>`) and what the branch_summary''s fromId names (pi: the leaf being left; oh-my-pi: the new leaf)')
            [CompletionResult]::new('--hooks-dir', '--hooks-dir', [CompletionResultType]::ParameterName, 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)')
            [CompletionResult]::new('--hook-timeout', '--hook-timeout', [CompletionResultType]::ParameterName, 'Stop a hook that runs longer than SECS seconds, and cancel')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--summarize', '--summarize', [CompletionResultType]::ParameterName, 'Have the summarizer (or the session_before_tree hook) write the summary')
            [CompletionResult]::new('--replace-instructions', '--replace-instructions', [CompletionResultType]::ParameterName, 'Use --instructions instead of the default instructions')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the entries that would be appended; write nothing and run no hooks')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'Run no hooks')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;reflog' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most N moves')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Show at most N moves')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;fork' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Fork the path from the root to REV inclusive, whatever REV''s type (pi''s fork at an entry)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the new file to PATH (`-` for standard output) instead of next to the source')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the new file to PATH (`-` for standard output) instead of next to the source')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Fork as this agent does (pi: no name carried, compactions re-pointed past dropped labels), whatever the file looks like')
            [CompletionResult]::new('--hooks-dir', '--hooks-dir', [CompletionResultType]::ParameterName, 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)')
            [CompletionResult]::new('--hook-timeout', '--hook-timeout', [CompletionResultType]::ParameterName, 'Stop a hook that runs longer than SECS seconds, and cancel')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing file at PATH')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'Run no hooks')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;branch' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Fork the path from the root to REV inclusive, whatever REV''s type (pi''s fork at an entry)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the new file to PATH (`-` for standard output) instead of next to the source')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the new file to PATH (`-` for standard output) instead of next to the source')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Fork as this agent does (pi: no name carried, compactions re-pointed past dropped labels), whatever the file looks like')
            [CompletionResult]::new('--hooks-dir', '--hooks-dir', [CompletionResultType]::ParameterName, 'The hooks directory [default: $XDG_CONFIG_HOME/sesstree/hooks or ~/.config/sesstree/hooks]. On Windows the default is %APPDATA%\sesstree\hooks, and a hook''s name has an extension PATHEXT lists (session_tree.cmd, .exe, .bat)')
            [CompletionResult]::new('--hook-timeout', '--hook-timeout', [CompletionResultType]::ParameterName, 'Stop a hook that runs longer than SECS seconds, and cancel')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing file at PATH')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'Run no hooks')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;stats' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--bytes', '--bytes', [CompletionResultType]::ParameterName, 'Where the bytes are instead: by entry type, inline images, tool output, the active path and the rest (what `prune --abandoned` would remove at most)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;label' {
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing `label` writes differs between them')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--clear', '--clear', [CompletionResultType]::ParameterName, 'Remove the label of REV')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the labels in effect instead')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the line that would be appended, and write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Move the label here when another entry carries it, or set a label that is or looks like the start of an id (without it, both are refused)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;name' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Who sets the name')
            [CompletionResult]::new('--from-plan', '--from-plan', [CompletionResultType]::ParameterName, 'Name the session after a plan title, as plan approval does (only if it has no name)')
            [CompletionResult]::new('--trigger', '--trigger', [CompletionResultType]::ParameterName, 'A free-form `trigger` recorded in the `title_change` entry (oh-my-pi files)')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Store the name as this agent does, whatever the file looks like')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the line that would be appended, and write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;humanize-title' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;migrate' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the result to PATH instead of replacing the file (also for a current file)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the result to PATH instead of replacing the file (also for a current file)')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing `migrate` writes differs between them')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--no-backup', '--no-backup', [CompletionResultType]::ParameterName, 'Do not keep the original as FILE.bak')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Only tell whether a migration is needed (exit 1 if so); write nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the migrated file to stdout; write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing -o PATH or FILE.bak')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;fsck' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where --repair writes the copy (`-` for standard output)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where --repair writes the copy (`-` for standard output)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The working directory recorded in a header that --repair restores')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'Whose session the file is (omp or pi), when neither its contents nor its directory say; refused when they say otherwise. Nothing a repair writes differs between them')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--repair', '--repair', [CompletionResultType]::ParameterName, 'Write a repaired copy of the file to -o PATH')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Let --repair overwrite an existing -o PATH')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print the problems only: no `FILE: ok` for a sound file (with --json, no object for it)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print the problems only: no `FILE: ok` for a sound file (with --json, no object for it)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;ls' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Only the sessions of the project in this directory')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only the sessions of this agent: a Claude Code or Codex transcript, or a file in oh-my-pi''s or pi''s sessions directory')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'Print only the paths, each ended by a NUL byte (for `xargs -0`)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'Print only the paths, each ended by a NUL byte (for `xargs -0`)')
            [CompletionResult]::new('--tree', '--tree', [CompletionResultType]::ParameterName, 'Draw the sessions as a tree: each under the session it came from')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;grep' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A pattern to match; give it more than once for any of several')
            [CompletionResult]::new('--regexp', '--regexp', [CompletionResultType]::ParameterName, 'A pattern to match; give it more than once for any of several')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Stop after NUM matching entries in each file')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Stop after NUM matching entries in each file')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Only entries of this role (again for several)')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Only calls to this tool and their results (again for several; `bash` also matches the shell executions run from the prompt)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only entries of this type (again for several)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only entries stamped at or after WHEN: a date (2026-11-30, local midnight), a time (2026-11-30T14:00, 2026-11-30T14:00:00Z) or a span back from now (7d, 12h, 2w)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only entries stamped before WHEN (as --since)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Only the sessions of the project in this directory')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Match the patterns as fixed strings')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Match the patterns as fixed strings')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Ignore letter case')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Ignore letter case')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Ignore letter case unless a pattern holds an upper-case letter')
            [CompletionResult]::new('--smart-case', '--smart-case', [CompletionResultType]::ParameterName, 'Ignore letter case unless a pattern holds an upper-case letter')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Match whole words only')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Match whole words only')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Print only the paths of files with a match')
            [CompletionResult]::new('--files-with-matches', '--files-with-matches', [CompletionResultType]::ParameterName, 'Print only the paths of files with a match')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print the number of matching entries of each file with a match')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print the number of matching entries of each file with a match')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only the current project''s sessions: those of the current directory, else of the nearest parent directory that has any (where a command without -f finds its session)')
            [CompletionResult]::new('--active-only', '--active-only', [CompletionResultType]::ParameterName, 'Only entries on the path from the root to the leaf')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;diff' {
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Which entries the rows show (as in `log`)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'Show only the summary of each side')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Show a unified diff of the context the model gets at each side''s end')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit with 1 when the sides differ and 0 when they do not, as `git diff --exit-code` (with --context, when the two contexts differ)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;export' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write (its path is printed); `-` for standard output')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write (its path is printed); `-` for standard output')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'What to write. Without it: Markdown for an -o FILE ending in .md or .markdown, else HTML')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--active-only', '--active-only', [CompletionResultType]::ParameterName, 'Only the path from the root to REV, without the other branches')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing file')
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'Replace API-key-shaped strings (sk-…, ghp_…, AKIA…, JWTs, Bearer tokens…) with `[REDACTED]` and the home directory with ~')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;prune' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'With --abandoned: only branches whose newest entry is older than SPAN (`30d`, `12h`, or a date: 2026-11-30)')
            [CompletionResult]::new('--dialect', '--dialect', [CompletionResultType]::ParameterName, 'With --images: whose session the file is (omp or pi), when neither its contents nor its directory say')
            [CompletionResult]::new('--restore', '--restore', [CompletionResultType]::ParameterName, 'Put back the entries a `--save` wrote to FILE')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'Append every removed line to FILE (made with the session''s header when new)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the result to PATH instead of replacing the file')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the result to PATH instead of replacing the file')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write). Without it, the current session: the newest (by modification time) of the current directory''s sessions in the agents'' session directories (`~/.omp/agent/sessions`, `~/.pi/agent/sessions`, or where their variables put them), as `omp --continue` and `pi -c` resume it; when the directory has none, the nearest parent directory''s, as git looks upward. `ls` marks it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--abandoned', '--abandoned', [CompletionResultType]::ParameterName, 'Remove every branch off the active path')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Remove the empty move markers of `checkout` that nothing hangs below')
            [CompletionResult]::new('--images', '--images', [CompletionResultType]::ParameterName, 'Move the inline base64 images of an oh-my-pi session into oh-my-pi''s blob store, as oh-my-pi itself writes them (`blob:sha256:` references); refused for pi sessions')
            [CompletionResult]::new('--no-backup', '--no-backup', [CompletionResultType]::ParameterName, 'Do not keep the original as FILE.bak')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be removed; write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing -o PATH or FILE.bak')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;import' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The agent whose session to write')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the new file to PATH instead of the agent''s sessions directory')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the new file to PATH instead of the agent''s sessions directory')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to work on, by its id (a prefix of at least 4 characters) or its name, looked for in every session directory of both agents (instead of -f)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing file at PATH')
            [CompletionResult]::new('--even-if-open', '--even-if-open', [CompletionResultType]::ParameterName, 'Write into a session even while an oh-my-pi process has it open. Without it, a command that would write into such a session writes nothing and exits 5, naming the process: oh-my-pi (18.4.9 and later) holds the session''s ownership lease while it runs, and entries written meanwhile are missing from what it shows and would be mixed with its own. On Windows oh-my-pi keeps the lease in a named mutex that sesstree cannot see: there no session counts as open, and this flag changes nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Do not page the output of `log`, `tree`, `show`, `context` and `reflog` on a terminal (the pager is `$SESSTREE_PAGER`, else `$PAGER`, else `less -FRX`)')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Show times in UTC instead of the local time zone (`TZ`, else the system''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;help' {
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the path from the root to REV (default `@`), newest first')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show the whole tree as the agent''s tree selector draws it')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Show the context the model would get from REV (default `@`)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry in full, as `git show` shows a commit')
            [CompletionResult]::new('checkout', 'checkout', [CompletionResultType]::ParameterValue, 'Move the leaf to REV, as the agent''s /tree navigation does')
            [CompletionResult]::new('reflog', 'reflog', [CompletionResultType]::ParameterValue, 'Show the moves and branch summaries the file holds, newest first')
            [CompletionResult]::new('fork', 'fork', [CompletionResultType]::ParameterValue, 'Fork a new session file from the history before a user message')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Count entries, branches, labels and token usage of one or many files')
            [CompletionResult]::new('label', 'label', [CompletionResultType]::ParameterValue, 'Set, remove or list entry labels')
            [CompletionResult]::new('name', 'name', [CompletionResultType]::ParameterValue, 'Show or set the session''s name')
            [CompletionResult]::new('humanize-title', 'humanize-title', [CompletionResultType]::ParameterValue, 'Turn plan titles into session names, as plan approval does')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Bring session files to the current format (version 3)')
            [CompletionResult]::new('fsck', 'fsck', [CompletionResultType]::ParameterValue, 'Check session files for damage, or write a repaired copy of one')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List session files, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search the text of sessions, knowing where each hit sits in its tree')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what two branches did differently, from their common ancestor')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Export the whole tree as one self-contained HTML page, or as Markdown')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove branches off the active path, or put removed ones back')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Make an oh-my-pi or pi session of a Claude Code or Codex transcript')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sesstree;help;log' {
            break
        }
        'sesstree;help;tree' {
            break
        }
        'sesstree;help;context' {
            break
        }
        'sesstree;help;show' {
            break
        }
        'sesstree;help;checkout' {
            break
        }
        'sesstree;help;reflog' {
            break
        }
        'sesstree;help;fork' {
            break
        }
        'sesstree;help;stats' {
            break
        }
        'sesstree;help;label' {
            break
        }
        'sesstree;help;name' {
            break
        }
        'sesstree;help;humanize-title' {
            break
        }
        'sesstree;help;migrate' {
            break
        }
        'sesstree;help;fsck' {
            break
        }
        'sesstree;help;ls' {
            break
        }
        'sesstree;help;grep' {
            break
        }
        'sesstree;help;diff' {
            break
        }
        'sesstree;help;export' {
            break
        }
        'sesstree;help;prune' {
            break
        }
        'sesstree;help;import' {
            break
        }
        'sesstree;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
