import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    position: relative;
    overflow: hidden;
    aspect-ratio: var(--fx-aspect-ratio, 16 / 9);
    background: #000;
    contain: content;
  }
  :host([hidden]) {
    display: none;
  }
  .stage,
  .poster {
    position: absolute;
    inset: 0;
  }
  .poster {
    width: 100%;
    height: 100%;
    object-fit: contain;
  }
  .stage iframe {
    position: absolute;
    top: 0;
    left: 0;
    border: 0;
    transform-origin: 0 0;
    pointer-events: none;
  }
  /* A reload's frame, behind the one on stage. Not visibility: hidden: Chromium then gives an opaque-origin frame
     no animation frames, and its pre-swap seek (which waits for a paint) would hang until the timeout. */
  .stage iframe.incoming {
    z-index: -1;
    opacity: 0.01;
  }
  .status {
    position: absolute;
    inset: 0;
    display: grid;
    place-items: center;
    color: #fff;
    font: 14px/1.4 system-ui, sans-serif;
    padding: 1em;
    text-align: center;
  }
  .status.error {
    background: rgb(0 0 0 / 0.8);
  }
  .controls {
    position: absolute;
    inset: auto 0 0 0;
    display: flex;
    align-items: center;
    gap: 0.5em;
    padding: 0.4em 0.6em;
    background: var(--fx-controls-background, linear-gradient(transparent, rgb(0 0 0 / 0.7)));
    color: #fff;
    font: 13px/1 system-ui, sans-serif;
  }
  .controls button {
    all: unset;
    cursor: pointer;
    min-width: 1.8em;
    min-height: 1.8em;
    display: inline-grid;
    place-items: center;
    border-radius: 4px;
  }
  .controls button:focus-visible,
  .controls input:focus-visible {
    outline: 2px solid #fff;
    outline-offset: 2px;
  }
  .controls input[type='range'] {
    flex: 1;
    accent-color: #fff;
  }
  .time {
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  .issues {
    background: #b45309;
    border-radius: 999px;
    padding: 0.2em 0.6em;
    white-space: nowrap;
  }
  .errors {
    background: #b91c1c;
    min-width: 0;
    max-width: 40%;
    overflow: hidden;
    text-overflow: ellipsis;
  }
`;
