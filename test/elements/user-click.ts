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
