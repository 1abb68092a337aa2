import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from './json-duplicates.js';

describe('findDuplicateKey', () => {
  it('finds a key twice in one object, at any depth, after unescaping', () => {
    expect(findDuplicateKey('{"amount":"50","amount":"0.000001"}')).toBe('amount');
    expect(findDuplicateKey('{"amount":"50","am\\u006funt":"0.000001"}')).toBe('amount');
    expect(findDuplicateKey('{"a":[{"b":1},{"c":{"d":1,"d":2}}]}')).toBe('d');
    expect(findDuplicateKey('{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":1}]}')).toBeUndefined();
    expect(findDuplicateKey('{"k":"k","v":["k","k"]}')).toBeUndefined();
    expect(findDuplicateKey('[1,"a","a",{"a":{"a":1}}]')).toBeUndefined();
    expect(findDuplicateKey('{"":1,"":2}')).toBe('');
  });

  it('walks a body nested 100,000 levels deep without exhausting the stack', () => {
    const depth = 100_000;
    expect(findDuplicateKey(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBeUndefined();
    const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    expect(findDuplicateKey(nested)).toBeUndefined();
    expect(findDuplicateKey(`{"x":${nested},"x":2}`)).toBe('x');
  });
});
