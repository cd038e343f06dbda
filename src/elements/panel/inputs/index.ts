import type { VariableType } from '../../../runtime/constants.js';
import { booleanInput } from './boolean.js';
import { colorInput } from './color.js';
import { enumInput } from './enum.js';
import { fontInput } from './font.js';
import { imageInput } from './image.js';
import { numberInput } from './number.js';
import { stringInput } from './string.js';
import type { InputRenderer } from './types.js';

/** The input of each variable type. */
export const INPUTS: Readonly<Record<VariableType, InputRenderer<never>>> = {
  string: stringInput,
  number: numberInput,
  color: colorInput,
  boolean: booleanInput,
  enum: enumInput,
  font: fontInput,
  image: imageInput,
};
