// What counts as a weak password. better-auth enforces the length; this adds the common ones.
const COMMON = new Set([
  "password",
  "password1",
  "password123",
  "12345678",
  "123456789",
  "1234567890",
  "qwertyuiop",
  "qwerty123",
  "iloveyou",
  "letmein1",
  "welcome1",
  "admin123",
  "abc12345",
  "11111111",
  "00000000",
]);

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Returns why the password is weak, or null when it is acceptable. */
export function passwordWeakness(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (COMMON.has(password.toLowerCase())) return "This password is too common.";
  if (new Set(password).size < 4) return "Use more different characters.";
  return null;
}
