/** The package ships no types: it turns Prometheus text into metric families (prom2json's shape). */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
