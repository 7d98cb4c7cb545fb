import { readFileSync } from 'node:fs';

/**
 * The home directory of the user named `name` in the passwd database (`/etc/passwd`), as
 * Python's `pwd.getpwnam(name).pw_dir`, or undefined when there is no such user (or no file
 * to read). Node has no `getpwnam`; users known only to NSS (LDAP, sssd) are not found.
 *
 * @example
 * userHome('root') // '/root'
 */
export function userHome(name: string, passwdFile = '/etc/passwd'): string | undefined {
  let text: string;
  try {
    text = readFileSync(passwdFile, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length >= 7 && fields[0] === name) return fields[5];
  }
  return undefined;
}
