import { STYLE_DE } from './style-de.js';
import { STYLE_EN } from './style-en.js';
import { STYLE_FR } from './style-fr.js';
import { type StyleCase, styleCases } from './style.js';

/** The own style cases of all three languages (style.ts). */
export const STYLE_CASES: StyleCase[] = styleCases([...STYLE_EN, ...STYLE_FR, ...STYLE_DE]);
