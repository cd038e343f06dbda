import { stdin, stderr } from 'node:process';

/**
 * The password for `admin.ts set-password`: piped on stdin (one line), or typed twice at a hidden prompt. Never
 * an argument, so it stays out of shell history and process lists.
 */
export async function readPassword(): Promise<string> {
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  const first = await hiddenPrompt('new password: ');
  const second = await hiddenPrompt('again: ');
  if (first !== second) throw new Error('the two passwords differ');
  return first;
}

/** One line typed without echo (raw mode), the question on stderr; Ctrl-C rejects. Also `fx auth login --api-key`'s prompt. */
export function hiddenPrompt(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    const onData = (data: Buffer) => {
      for (const character of data.toString('utf8')) {
        if (character === '\r' || character === '\n') return done(() => resolve(typed));
        if (character === '\u0003') return done(() => reject(new Error('cancelled')));
        if (character === '\u007f' || character === '\b') typed = Array.from(typed).slice(0, -1).join('');
        else typed += character;
      }
    };
    const done = (settle: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      settle();
    };
    stdin.on('data', onData);
  });
}
