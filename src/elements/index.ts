export { FxComposition } from './composition/fx-composition.js';
export { FxEvent, FxAttribute, FxErrorCode } from './internal/constants.js';
export type { FxCompositionEventMap, FxErrorDetail, FxVariablesChangeDetail } from './internal/events.js';
export {
  FxRenderButton,
  type FxRenderButtonEventMap,
  type FxRenderedDetail,
} from './render-button/fx-render-button.js';
export { FxRenderButtonEvent, FxRenderButtonAttribute, FxRenderButtonErrorCode } from './render-button/constants.js';
export { checkVariableBounds } from './composition/variable-bounds.js';
export { FxVariablesPanel } from './panel/fx-variables-panel.js';
export { FxVariablesPanelEvent, FxVariablesPanelAttribute, FxVariablesPanelErrorCode } from './panel/constants.js';
