/** `fx completion`: a bash (and zsh, through bashcompinit) completion script made from the command table. */
import { COMMANDS } from '../commands.js';
import { COMMON_FLAGS, type Command, type CommandContext } from '../command.js';
import { OutputEvent } from '../output.js';

export const command: Command = {
  name: 'completion',
  summary:
    'Prints a completion script. bash: eval "$(fx completion)"; zsh: autoload -U +X compinit bashcompinit && compinit && bashcompinit, then the same.',
  run,
};

async function run(context: CommandContext): Promise<void> {
  const script = await completionScript();
  context.out.event(OutputEvent.result, { shell: 'bash', script });
  context.out.line(script);
}

/**
 * The script: the first word completes to a command or group, a group's second word to its commands, a word
 * starting with `-` to the flags of the command so far (a group that is a command too, `service`, keeps its own
 * flags), anything else to a file name; hidden aliases are left out.
 */
export async function completionScript(): Promise<string> {
  const flagsOf = new Map<string, string>();
  for (const entry of COMMANDS) {
    const { command: loaded } = await entry.load();
    const names = Object.entries({ ...loaded.flags, ...COMMON_FLAGS })
      .filter(([, spec]) => !spec.hidden)
      .map(([name]) => name);
    flagsOf.set(entry.name, names.map((flag) => `--${flag}`).join(' '));
  }
  const first = (name: string) => name.split(' ')[0]!;
  const tops = [...new Set(COMMANDS.map((entry) => first(entry.name)))].join(' ');
  const groups = [...new Set(COMMANDS.filter((entry) => entry.name.includes(' ')).map((entry) => first(entry.name)))];
  const subs = (group: string) =>
    COMMANDS.filter((entry) => entry.name.startsWith(`${group} `))
      .map((entry) => entry.name.split(' ')[1])
      .join(' ');
  const groupCases = groups.map(
    (group) => `    ${group})
      case " ${subs(group)} " in *" \${COMP_WORDS[2]} "*) if [ "$COMP_CWORD" -gt 2 ]; then cmd="$cmd \${COMP_WORDS[2]}"; fi ;; esac
      if [ "$COMP_CWORD" -eq 2 ] && [[ "$cur" != -* ]]; then COMPREPLY=($(compgen -W "${subs(group)}" -- "$cur")); return; fi ;;`,
  );
  const flagCases = COMMANDS.map((entry) => `    "${entry.name}") flags="${flagsOf.get(entry.name)}" ;;`);
  return `# fx completion (bash; zsh with bashcompinit)
_fx() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" flags=""
  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "${tops}" -- "$cur")); return; fi
  case "$cmd" in
${groupCases.join('\n')}
  esac
  case "$cmd" in
${flagCases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _fx fx`;
}
