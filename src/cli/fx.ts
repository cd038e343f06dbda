/** The `fx` process: real streams, real signals, and an exit once the command is done (idle sockets don't hold it). */
import '../runtime/dom-parser.node.js';
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  onInterrupt(listener) {
    let count = 0;
    const onSigint = () => {
      count += 1;
      if (count === 1) listener();
      else process.exit(130);
    };
    process.on('SIGINT', onSigint);
    return () => process.off('SIGINT', onSigint);
  },
});
process.stdout.write('', () => process.exit(code));
