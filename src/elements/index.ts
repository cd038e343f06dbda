export { FxComposition } from './composition/fx-composition.js';
export { FxCompositionEvent, FxCompositionAttribute, FxCompositionErrorCode } from './internal/constants.js';
// Deprecated: the composition's tables' names before each element's were named for it.
export { FxEvent, FxAttribute, FxErrorCode } from './internal/constants.js';
export type { FxCompositionEventMap, FxErrorDetail, FxVariablesChangeDetail } from './internal/events.js';
export {
  FxRenderButton,
  type FxRenderButtonEventMap,
  type FxRenderedDetail,
} from './render-button/fx-render-button.js';
export {
  FxRenderButtonEvent,
  FxRenderButtonAttribute,
  FxRenderButtonErrorCode,
  FxRenderButtonMode,
} from './render-button/constants.js';
export { checkVariableBounds } from './composition/variable-bounds.js';
export { FxVariablesPanel } from './panel/fx-variables-panel.js';
export { FxVariablesPanelEvent, FxVariablesPanelAttribute, FxVariablesPanelErrorCode } from './panel/constants.js';
