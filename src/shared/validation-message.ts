/** One schema violation as Ajv reports it. */
export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * The issue to tell the client about: the first, except that a nullable value's "must be null" (its first branch,
 * `Nullable` in schemas/common.ts) gives way to what the value itself broke, which follows it.
 */
export function firstIssue(issues: readonly ValidationIssue[]): ValidationIssue {
  const isNullBranch = (issue: ValidationIssue) => issue.keyword === 'type' && issue.params.type === 'null';
  return issues.find((issue) => !isNullBranch(issue) && issue.keyword !== 'anyOf') ?? issues[0]!;
}

/** The violated rule in words. */
export function ruleText(issue: ValidationIssue): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'minLength':
      return `must be at least ${String(p.limit)} characters long`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'type':
      return `must be of type ${String(p.type)}`;
    case 'format':
      return `must be a valid ${String(p.format)}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'minItems':
      return `must have at least ${String(p.limit)} items`;
    case 'uniqueItems':
      return 'must not repeat a value';
    case 'minProperties':
      return 'must have at least one field';
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return `does not allow the property "${String(p.additionalProperty)}"`;
    default:
      return issue.message ?? 'is invalid';
  }
}

/** The offending value, shortened. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

export function valueAt(source: unknown, pointer: string): unknown {
  let current: unknown = source;
  for (const segment of pointer.split('/').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** `label "field" rule, got value` and the field path, for an issue found in `source`. */
export function describeIssue(
  label: string,
  prefix: string[],
  issue: ValidationIssue,
  source: unknown,
): { message: string; field: string } {
  const segments = [...prefix, ...issue.instancePath.split('/').filter(Boolean)];
  if (issue.keyword === 'required') {
    const field = [...segments, String(issue.params.missingProperty)].join('.');
    return { message: `${label} "${field}" is required`, field };
  }
  const field = segments.join('.') || prefix.join('.');
  return {
    message: `${label} "${field}" ${ruleText(issue)}, got ${shown(valueAt(source, issue.instancePath))}`,
    field,
  };
}
