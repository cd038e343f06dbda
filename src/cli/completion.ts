/** `fx completion`: a bash (and zsh, through bashcompinit) completion script made from the command table. */
import { COMMANDS } from './commands.js';
import type { Command, CommandContext } from './command.js';

export const command: Command = {
  name: 'completion',
  summary:
    'Prints a completion script. bash: eval "$(fx completion)"; zsh: autoload -U bashcompinit && bashcompinit, then the same.',
  run,
};

async function run(context: CommandContext): Promise<void> {
  const flagsOf = new Map<string, string>();
  for (const entry of COMMANDS) {
    const { command: loaded } = await entry.load();
    flagsOf.set(entry.name, [...Object.keys(loaded.flags ?? {}), 'json', 'help'].map((flag) => `--${flag}`).join(' '));
  }
  const tops = [...new Set(COMMANDS.map((entry) => entry.name.split(' ')[0]!))].join(' ');
  const subs = (top: string) =>
    COMMANDS.filter((entry) => entry.name.startsWith(`${top} `))
      .map((entry) => entry.name.split(' ')[1])
      .join(' ');
  const cases = COMMANDS.map((entry) => `    "${entry.name}") flags="${flagsOf.get(entry.name)}" ;;`).join('\n');
  const groups = [
    ...new Set(COMMANDS.filter((entry) => entry.name.includes(' ')).map((entry) => entry.name.split(' ')[0]!)),
  ];
  context.out.line(`# fx completion (bash; zsh with bashcompinit)
_fx() {
  local cur=\${COMP_WORDS[COMP_CWORD]} flags="" path=""
  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "${tops}" -- "$cur")); return; fi
  case "\${COMP_WORDS[1]}" in
${groups.map((group) => `    ${group}) if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "${subs(group)}" -- "$cur")); return; fi; path="${group} \${COMP_WORDS[2]}" ;;`).join('\n')}
    *) path="\${COMP_WORDS[1]}" ;;
  esac
  case "$path" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _fx fx`);
}
