/**
 * Reply prefixes mail clients put before a subject, in several languages (Re, RE, Aw, Sv, Vs, Antw, Odp,
 * Rif, Ynt, Res), also numbered ("Re[2]:", "Re(3):") and with a full-width colon.
 */
const replyPrefix = /^\s*(?:re|aw|sv|vs|antw|odp|rif|ynt|res|r)(?:\s*[[(]\d+[\])])?\s*[:：]\s*/i;

/** The subject without any leading reply prefixes ("Re: AW: Lunch" → "Lunch"). */
export function baseSubject(params: { subject: string }): string {
  let subject = params.subject.trim();
  for (let previous = ''; previous !== subject; ) {
    previous = subject;
    subject = subject.replace(replyPrefix, '');
  }
  return subject.trim();
}

/** The subject of a reply: exactly one "Re: " before the original's subject, never "Re: Re: ...". */
export function replySubject(params: { subject: string | undefined }): string {
  const base = baseSubject({ subject: params.subject ?? '' });
  return base === '' ? 'Re: (no subject)' : `Re: ${base}`;
}
