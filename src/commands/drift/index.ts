// `pinvoice drift --journal FILE`: the findings of a `pinvoice proxy` journal grouped, counted and
// graded, for a person (text) or CI (json, markdown, junit), with an exit code for CI to fail on.
// The handler is imported when the command runs; what needs the operation table (--operation's
// check) is checked there, before the journal is read.
import { Command, InvalidArgumentError, Option } from '../commander.js';
import type { FailOn } from '../../api/drift.js';
import { parseDuration } from '../../base/duration.js';
import { EXIT } from '../../cli/errors.js';
import { examples, type FlagsOf } from '../options.js';

export const FORMATS = ['text', 'json', 'markdown', 'junit'] as const;
export const FAIL_ON = ['error', 'warning', 'info', 'never'] as const satisfies readonly FailOn[];

/** --since: a duration back from now ("24h", "7d"), a date (its start in the user's zone) or a date-time with its zone; resolved when the command runs. */
export function since(value: string): string {
  const text = value.trim();
  if (parseDuration(text) !== undefined || /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i.test(text)) return text;
  throw new InvalidArgumentError('must be a duration back from now (24h, 7d, 1w), a date (2026-11-25, from the start of that day in your time zone) or a date-time with its zone (2026-11-25T14:00:00-03:00)');
}

const driftCommand = () =>
  new Command('drift')
    .description(`the findings of a \`pinvoice proxy\` journal grouped by operation, direction, kind and path, counted and graded, worst first; exits ${EXIT.drift} when a group at or above --fail-on is left after --accept`)
    .requiredOption('--journal <file>', 'the journal file `pinvoice proxy --journal FILE` kept')
    .addOption(new Option('--since <when>', 'only exchanges from then on: 24h, 7d, a date (2026-11-25) or a date-time with its zone').argParser(since))
    .option('--operation <operationId>', 'only findings of this operation (createInvoice, searchTransaction, …)')
    .addOption(new Option('--format <format>', 'text for a terminal; json (the shape GET /_pinvoice/drift answers); markdown for a PR comment or $GITHUB_STEP_SUMMARY; junit for a CI test report').choices(FORMATS).default('text' as const))
    .option('--json', 'the same as --format json')
    .addOption(new Option('--fail-on <severity>', `exit ${EXIT.drift} when a group this severe or worse counts; never: exit 0 whatever the report holds`).choices(FAIL_ON).default('error' as const))
    .option('--accept <file>', 'a JSON file of accepted drift, [{operation, kind, path, reason, until}]: a group it matches does not count until its day is over')
    .option('--against <url>', "twin drift: send the journal's creates again to this running `pinvoice serve`, look up what they made, and compare serve's answers with production's, shape by shape")
    .option('--profile <name>', "with --against: the profile whose token serve takes (its base URL must be --against's origin)")
    .option('--token-file <file>', 'with --against: a file holding the token serve takes (trimmed; never printed)')
    .option('--utc', 'show times in UTC (default: the zone in TZ, else America/Sao_Paulo, with its offset)')
    .option('--no-color', 'no colour (also NO_COLOR=1, or when stdout is not a terminal)');
export type DriftFlags = FlagsOf<typeof driftCommand>;

export function driftGroup() {
  return driftCommand()
    .addHelpText('after', examples(
      'pinvoice drift --journal prod.journal',
      'pinvoice drift --journal prod.journal --since 24h --fail-on warning',
      'pinvoice drift --journal prod.journal --operation createInvoice --json | jq .groups',
      'pinvoice drift --journal prod.journal --accept drift-accepted.json --format markdown >> "$GITHUB_STEP_SUMMARY"',
      'pinvoice drift --journal prod.journal --format junit > drift.xml',
      'pinvoice drift --journal prod.journal --against http://127.0.0.1:4010 --token-file serve.token',
    ))
    .action(async (flags) => (await import('./report.js')).drift(flags));
}
