// A scrape of serve's /metrics, parsed by a real Prometheus text-format parser
// (parse-prometheus-text-format, prom2json's shapes), and the samples a test asks about.
//
// That parser folds every series of a histogram into one and drops a _sum or _count that has labels
// (its flattenMetrics), so a histogram by operation is read one series at a time: its lines of that
// series, the series' own labels taken off (le kept), parsed as a histogram of their own.
import parsePrometheusTextFormat, { type Family, type Sample } from 'parse-prometheus-text-format';

export interface Scrape {
  status: number;
  text: string;
  families: Family[];
  /** the family of that name; throws when the scrape has none */
  family(name: string): Family;
  /** the value of the one sample of `name` whose labels include `labels` (undefined: none) */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** the series of histogram `name` with exactly these labels (le aside): its cumulative buckets by bound, count and sum */
  histogram(name: string, labels: Record<string, string>): { buckets: [number, number][]; count: number; sum: number };
}

/** `{a="1",le="0.5"}` of a sample line, as written by prom-client (no escapes in our label values). */
const labelsOf = (line: string) => Object.fromEntries([...(/\{(.*)\}/.exec(line)?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));

const matches = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value);

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const families = response.status === 200 ? parsePrometheusTextFormat(text) : [];
  const family = (name: string) => {
    const found = families.find((f) => f.name === name);
    if (!found) throw new Error(`the scrape has no ${name}; it has: ${families.map((f) => f.name).join(', ')}`);
    return found;
  };
  return {
    status: response.status,
    text,
    families,
    family,
    value(name, labels = {}) {
      const found = family(name).metrics.filter((sample) => matches(sample, labels));
      if (found.length > 1) throw new Error(`${name}${JSON.stringify(labels)} matches ${found.length} samples`);
      return found[0]?.value === undefined ? undefined : Number(found[0].value);
    },
    histogram(name, labels) {
      const series = text.split('\n').filter((line) => {
        if (!/^\w+_(bucket|sum|count)\{/.test(line) || !line.startsWith(`${name}_`)) return false;
        const { le: _, ...own } = labelsOf(line);
        return JSON.stringify(own) === JSON.stringify(labels);
      });
      if (series.length === 0) throw new Error(`no series ${name}${JSON.stringify(labels)}`);
      const alone = series.map((line) => line.replace(/\{[^}]*\}/, (all) => {
        const le = labelsOf(all).le;
        return le === undefined ? '' : `{le="${le}"}`;
      }));
      const [parsed] = parsePrometheusTextFormat([`# TYPE ${name} histogram`, ...alone, ''].join('\n')).filter((f) => f.name === name);
      const sample = parsed?.metrics[0];
      if (!sample?.buckets) throw new Error(`${name}${JSON.stringify(labels)} did not parse as a histogram`);
      const bound = (le: string) => (le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le));
      const buckets = Object.entries(sample.buckets).map(([le, n]): [number, number] => [bound(le), Number(n)]).sort(([a], [b]) => a - b);
      return { buckets, count: Number(sample.count), sum: Number(sample.sum) };
    },
  };
}
