/** Test tool: loads a compiled composition into a same-origin (unsandboxed) frame so a test can look inside. */
import type { CompiledComposition } from '../../src/runtime/compile/compile.js';

const frames: HTMLIFrameElement[] = [];
afterEach(() => frames.splice(0).forEach((frame) => frame.remove()));

/** Resolves with the frame's window once the runtime is ready; the frame is removed after the test. */
export async function openCompiled(compiled: CompiledComposition): Promise<Window & typeof globalThis> {
  const iframe = document.createElement('iframe');
  iframe.style.cssText = 'width:320px;height:180px;border:0';
  frames.push(iframe);
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = compiled.html;
  document.body.append(iframe);
  await loaded;
  const view = iframe.contentWindow as Window & typeof globalThis;
  await view.__fx.ready;
  return view;
}
