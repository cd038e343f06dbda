// <fx-composition> in React's JSX. fx-sdk does not ship React typings yet (issue 9 item 3); until it does, an app
// declares the element itself, as here.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { FxComposition } from 'fx-sdk';

type FxCompositionProps = DetailedHTMLProps<HTMLAttributes<FxComposition>, FxComposition> & {
  src?: string;
  controls?: boolean;
  variables?: Record<string, unknown>;
};

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'fx-composition': FxCompositionProps;
    }
  }
}
