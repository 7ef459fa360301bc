// commander, as the command groups and program.ts use it: the classes of the package itself, loaded with
// require(), and their types from @commander-js/extra-typings (which types flags and arguments). Read
// through Node 20's ES-module loader (extra-typings' esm.mjs wrapping CommonJS) it cost about 35 ms at
// every start; required, about 20 (bench/startup.ts). Types only are imported from the package here.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type */
import { createRequire } from 'node:module';
import type * as Typed from '@commander-js/extra-typings';

const commander = createRequire(import.meta.url)('commander') as typeof Typed;

export const { Command, Option, Argument, InvalidArgumentError } = commander;
export type Command<Args extends any[] = [], Opts extends Typed.OptionValues = {}, GlobalOpts extends Typed.OptionValues = {}> = Typed.Command<Args, Opts, GlobalOpts>;
export type Option<Usage extends string = '', PresetT = undefined, DefaultT = undefined, CoerceT = undefined, Mandatory extends boolean = false, ChoicesT = undefined> =
  Typed.Option<Usage, PresetT, DefaultT, CoerceT, Mandatory, ChoicesT>;
export type Argument<Usage extends string = '', DefaultT = undefined, CoerceT = undefined, ArgRequired extends boolean | undefined = undefined, ChoicesT = undefined> =
  Typed.Argument<Usage, DefaultT, CoerceT, ArgRequired, ChoicesT>;
export type InvalidArgumentError = Typed.InvalidArgumentError;
export type { CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
