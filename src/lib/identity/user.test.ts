import { describe, expect, it } from 'vitest';
import { initialsOf, parseSignedInRecord, signedInRecord, userFromUserInfo } from './user.ts';

describe('the authenticated user (spec §3)', () => {
  it('is filled from the user info: names, e-mail, roles, populated', () => {
    const user = userFromUserInfo({ sub: 'u1', name: 'Claire Customer', given_name: 'Claire', family_name: 'Customer', email: 'customer@demo.komax.test', roles: ['kmx_int_serviceticketing_active', 7] });
    expect(user).toEqual({
      id: 'u1', firstName: 'Claire', lastName: 'Customer', fullName: 'Claire Customer', initials: 'CC', email: 'customer@demo.komax.test',
      roles: ['kmx_int_serviceticketing_active'], populated: true, isDelegatedAdminInternal: false, isDelegatedAdminExternal: false,
    });
  });

  it('sets the delegated-admin flags from the internal and external roles', () => {
    expect(userFromUserInfo({ sub: 'a', roles: ['kmx_delegatedadmin_intern'] })).toMatchObject({ isDelegatedAdminInternal: true, isDelegatedAdminExternal: false });
    expect(userFromUserInfo({ sub: 'a', roles: ['kmx_delegatedadmin_extern'] })).toMatchObject({ isDelegatedAdminInternal: false, isDelegatedAdminExternal: true });
    expect(userFromUserInfo({ sub: 'a', roles: 'kmx_delegatedadmin_extern' })).toMatchObject({ roles: [], isDelegatedAdminExternal: false });
  });

  it('builds the full name from first and last name when the provider sends no name', () => {
    expect(userFromUserInfo({ sub: 'a', given_name: 'Ida', family_name: 'Intern' }).fullName).toBe('Ida Intern');
    expect(userFromUserInfo({ sub: 'a', family_name: 'Intern' }).fullName).toBe('Intern');
  });

  it('requires a subject', () => {
    expect(() => userFromUserInfo({ name: 'x' })).toThrow('User info has no subject');
  });

  it('initials: first letters of first and last name, uppercase', () => {
    expect(initialsOf('claire', 'customer')).toBe('CC');
    expect(initialsOf('Ärni', 'öz')).toBe('ÄÖ');
    expect(initialsOf('', 'Noroles')).toBe('N');
    expect(initialsOf(' ', '')).toBe('');
  });

  it('the signed-in record holds names and initials only', () => {
    const user = userFromUserInfo({ sub: 'u1', given_name: 'Claire', family_name: 'Customer', email: 'c@x', roles: ['r'] });
    expect(signedInRecord(user)).toEqual({ initials: 'CC', fullName: 'Claire Customer' });
    expect(parseSignedInRecord(JSON.stringify(signedInRecord(user)))).toEqual({ initials: 'CC', fullName: 'Claire Customer' });
    for (const raw of [null, '', '{', 'null', '{"initials":1}']) expect(parseSignedInRecord(raw)).toBeNull();
  });
});
