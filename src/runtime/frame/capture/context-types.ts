/**
 * Which kind of context each canvas got, and with which attributes: asking a canvas afterwards (`getContext`) would
 * create one on a canvas that has none, so the runtime, loaded before any composition script, notes each as made.
 */
const contexts = new WeakMap<HTMLCanvasElement, { type: string; preserveDrawingBuffer: boolean }>();

export function recordCanvasContexts(): void {
  const original = HTMLCanvasElement.prototype.getContext;
  // `any`-free wrapper keeping the overloads' shape for callers.
  HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, options?: unknown) {
    const context = (original as (type: string, options?: unknown) => RenderingContext | null).call(
      this,
      type,
      options,
    );
    if (context && !contexts.has(this))
      contexts.set(this, {
        type,
        preserveDrawingBuffer: Boolean(
          (options as { preserveDrawingBuffer?: unknown } | undefined)?.preserveDrawingBuffer,
        ),
      });
    return context;
  } as typeof original;
}

/** A WebGL canvas whose drawing buffer is cleared once composited: what is read later is blank. */
export function isUnreadableWebgl(canvas: HTMLCanvasElement): boolean {
  const context = contexts.get(canvas);
  return !!context && /^(webgl2?|experimental-webgl)$/.test(context.type) && !context.preserveDrawingBuffer;
}
