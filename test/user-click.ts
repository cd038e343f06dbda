// A click the browser counts as the user's (a trusted event with user activation), unlike `element.click()`: sent
// as real input by the runner (CDP in Chromium, WebDriver BiDi in Firefox, WebDriver actions in WebKit).
import { sendMouse } from '@web/test-runner-commands';

/** Clicks the middle of `element` (scrolled into view) with the mouse, then leaves the pointer in the corner. */
export async function userClick(element: Element): Promise<void> {
  element.scrollIntoView({ block: 'center' });
  const box = element.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)],
  });
  await sendMouse({ type: 'move', position: [0, 0] });
}

/**
 * Runs `action` in the click handler of a button the user clicks (see {@link userClick}), as an app would call
 * `signInWithPopup()` or `window.open()`; resolves with what it returned. WebKit opens windows only from such a click.
 */
export async function fromUserClick<T>(action: () => T): Promise<Awaited<T>> {
  const button = document.createElement('button');
  button.textContent = 'Go';
  button.style.cssText = 'position:fixed;left:0;top:0;z-index:2147483647';
  const clicked = new Promise<T>((resolve, reject) =>
    button.addEventListener(
      'click',
      () => {
        try {
          resolve(action());
        } catch (error) {
          reject(error);
        }
      },
      { once: true },
    ),
  );
  document.body.append(button);
  try {
    await userClick(button);
    return await clicked;
  } finally {
    button.remove();
  }
}
