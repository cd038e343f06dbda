/** The shapes of a parsed variable declaration, one per type (parsed and checked in `declarations.ts`). */
import type { VariableType } from './constants.js';

interface Base<Type extends VariableType, Default> {
  readonly id: string;
  readonly type: Type;
  readonly label: string;
  readonly default: Default;
  /** Unknown extra fields (`description`, `role`, …) are kept. */
  readonly [extra: string]: unknown;
}
export interface StringDeclaration extends Base<'string', string> {
  readonly placeholder?: string;
  readonly maxLength?: number;
}
export interface NumberDeclaration extends Base<'number', number> {
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly unit?: string;
}
export type ColorDeclaration = Base<'color', string>;
export type BooleanDeclaration = Base<'boolean', boolean>;
export interface EnumOption {
  readonly value: string;
  readonly label: string;
  readonly [extra: string]: unknown;
}
export interface EnumDeclaration extends Base<'enum', string> {
  readonly options: readonly EnumOption[];
}
/** Default is a family name; values may be a name or `{ name, source }`. */
export type FontDeclaration = Base<'font', string>;
/** Default is a URL; values may be a URL or `{ url }`. */
export type ImageDeclaration = Base<'image', string>;
export type VariableDeclaration =
  | StringDeclaration
  | NumberDeclaration
  | ColorDeclaration
  | BooleanDeclaration
  | EnumDeclaration
  | FontDeclaration
  | ImageDeclaration;
