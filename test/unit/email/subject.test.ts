import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { baseSubject, replySubject } from '../../../adapters/email/subject.js';

describe('replySubject', () => {
  test('adds exactly one "Re: "', () => {
    assert.equal(replySubject({ subject: 'Lunch' }), 'Re: Lunch');
    assert.equal(replySubject({ subject: 'Re: Lunch' }), 'Re: Lunch');
    assert.equal(replySubject({ subject: 'RE: re: Re: Lunch' }), 'Re: Lunch');
  });

  test('understands other languages\' and numbered prefixes', () => {
    for (const subject of ['AW: Lunch', 'Aw: Lunch', 'SV: Lunch', 'Antw: Lunch', 'Re[2]: Lunch', 'Re(3): Lunch', 'RE：Lunch', 'Re: AW: Sv: Lunch']) {
      assert.equal(replySubject({ subject }), 'Re: Lunch', subject);
    }
  });

  test('keeps forwards and words that only look like prefixes', () => {
    assert.equal(replySubject({ subject: 'Fwd: Lunch' }), 'Re: Fwd: Lunch');
    assert.equal(replySubject({ subject: 'Regarding lunch' }), 'Re: Regarding lunch');
    assert.equal(baseSubject({ subject: 'Resume: draft' }), 'Resume: draft');
  });

  test('an empty subject still gets a readable one', () => {
    assert.equal(replySubject({ subject: undefined }), 'Re: (no subject)');
    assert.equal(replySubject({ subject: '  Re:  ' }), 'Re: (no subject)');
  });
});
