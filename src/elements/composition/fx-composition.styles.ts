import { css, unsafeCSS } from 'lit';
import { COMPOSITION_BACKDROP } from '../../runtime/constants.js';

const { r, g, b } = COMPOSITION_BACKDROP;
/** The renderer paints the same colour behind an opaque render: what the composition leaves empty matches. */
const backdrop = unsafeCSS(`rgb(${r} ${g} ${b})`);

export const styles = css`
  :host {
    display: block;
    position: relative;
    overflow: hidden;
    aspect-ratio: var(--fx-aspect-ratio, 16 / 9);
    background: ${backdrop};
    contain: content;
    /* The controls lay out by the element's width (two rows when narrow). */
    container-type: inline-size;
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
    font:
      14px/1.4 system-ui,
      sans-serif;
    padding: 1em;
    text-align: center;
  }
  .status.error {
    background: rgb(0 0 0 / 0.8);
  }
  /* Without controls, the latest error still shows, in a corner of the stage. */
  .stage-errors {
    position: absolute;
    inset: 0.4em auto auto 0.4em;
    max-width: calc(100% - 0.8em);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    border-radius: 999px;
    padding: 0.2em 0.6em;
    background: #b91c1c;
    color: #fff;
    font:
      12px/1.4 system-ui,
      sans-serif;
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
    font:
      13px/1 system-ui,
      sans-serif;
    transition: opacity 0.2s;
  }
  /* Hidden, not gone: still focusable, and focus brings them back (controls-autohide.ts). */
  .controls.hidden {
    opacity: 0;
  }
  /* 24 px targets at least (WCAG 2.5.8). */
  .controls button {
    all: unset;
    cursor: pointer;
    box-sizing: border-box;
    min-width: 28px;
    min-height: 28px;
    padding: 0 2px;
    display: inline-grid;
    place-items: center;
    border-radius: 4px;
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }
  [part='rate-button'] {
    min-width: 3.2em;
  }
  .controls button:focus-visible,
  .controls input:focus-visible {
    outline: 2px solid #fff;
    outline-offset: 2px;
  }
  .controls input[type='range'] {
    min-height: 24px;
    margin: 0;
    accent-color: #fff;
  }
  [part='scrubber'] {
    flex: 1;
    min-width: 48px;
  }
  [part='volume'] {
    width: 64px;
  }
  /* Narrow: the scrubber takes a row of its own above the buttons. */
  @container (max-width: 480px) {
    .controls {
      flex-wrap: wrap;
      row-gap: 0.2em;
    }
    [part='scrubber'] {
      order: -1;
      flex-basis: 100%;
    }
    [part='time'] {
      margin-inline-end: auto;
    }
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
