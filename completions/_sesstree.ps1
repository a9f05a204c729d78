
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
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the path from the root to REV (default `@`), newest first')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show the whole tree as the agent''s tree selector draws it')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Show the context the model would get from REV (default `@`)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry in full, as pretty JSON')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Count entries, branches, labels and token usage of one or many files')
            [CompletionResult]::new('humanize-title', 'humanize-title', [CompletionResultType]::ParameterValue, 'Turn plan titles into session names, as plan approval does')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sesstree;log' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most N entries')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Show at most N entries')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Which entries to show')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Oldest first')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Print the original JSONL lines instead')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;tree' {
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Which entries to show')
            [CompletionResult]::new('--search', '--search', [CompletionResultType]::ParameterName, 'Show only entries matching every word (case-insensitive)')
            [CompletionResult]::new('--leaf', '--leaf', [CompletionResultType]::ParameterName, 'Draw the tree as if REV were the current leaf')
            [CompletionResult]::new('--order', '--order', [CompletionResultType]::ParameterName, 'Order of branches: `active` puts the branch holding the leaf first; `file` keeps the reference''s order (roots in file order, children by timestamp)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--fuzzy', '--fuzzy', [CompletionResultType]::ParameterName, 'Match search words as subsequences, as the agent''s selector does')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw with ASCII instead of box-drawing characters')
            [CompletionResult]::new('--include-archived', '--include-archived', [CompletionResultType]::ParameterName, 'Show archived subtrees too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;context' {
            [CompletionResult]::new('--flavor', '--flavor', [CompletionResultType]::ParameterName, 'Whose templates and message shapes apply')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Text output format (ignored with --json)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--agent-messages', '--agent-messages', [CompletionResultType]::ParameterName, 'Show the messages before conversion to the model''s roles (branchSummary, compactionSummary, custom, ...)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;show' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Print the original JSONL line, byte for byte')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;stats' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;humanize-title' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file to work on (`-` reads standard input for commands that do not write)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON (JSON Lines for streams of entries)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat damage (unparseable lines, duplicate ids, missing parents, cycles) as an error (exit 3) instead of a warning')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sesstree;help' {
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the path from the root to REV (default `@`), newest first')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show the whole tree as the agent''s tree selector draws it')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Show the context the model would get from REV (default `@`)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry in full, as pretty JSON')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Count entries, branches, labels and token usage of one or many files')
            [CompletionResult]::new('humanize-title', 'humanize-title', [CompletionResultType]::ParameterValue, 'Turn plan titles into session names, as plan approval does')
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
        'sesstree;help;stats' {
            break
        }
        'sesstree;help;humanize-title' {
            break
        }
        'sesstree;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
