import {
  GroveError,
  InvalidArgumentError,
  InvalidConfigError,
  InvalidTreeJsonError,
  NoUserMessageError,
  UnknownNodeError,
} from '../../../core';

describe('errors', () => {
  it('have stable names and are real Errors', () => {
    const classes = [UnknownNodeError, InvalidArgumentError, InvalidTreeJsonError, InvalidConfigError, NoUserMessageError];
    for (const C of classes) {
      const e = new C('boom');
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe(C.errorName);
      expect(e.message).toBe('boom');
      expect(GroveError.isInstance(e)).toBe(true);
      expect(C.isInstance(e)).toBe(true);
    }
  });

  it('isInstance tells kinds apart and rejects foreign errors', () => {
    const e = new UnknownNodeError('x');
    expect(InvalidArgumentError.isInstance(e)).toBe(false);
    expect(GroveError.isInstance(new Error('x'))).toBe(false);
    expect(GroveError.isInstance('a string')).toBe(false);
    expect(GroveError.isInstance(null)).toBe(false);
  });

  it('isInstance works across realms by marker and name (no instanceof needed)', () => {
    const foreign = Object.assign(new Error('from another context'), { name: 'UnknownNodeError' });
    (foreign as unknown as Record<symbol, unknown>)[Symbol.for('grove.error')] = true;
    expect(UnknownNodeError.isInstance(foreign)).toBe(true);
    expect(foreign instanceof UnknownNodeError).toBe(false);
  });

  it('keeps a cause', () => {
    const cause = new Error('root cause');
    expect(new InvalidConfigError('bad', { cause }).cause).toBe(cause);
  });
});
