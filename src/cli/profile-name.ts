// What a profile may be called, and the name suggested for a new company's profile.

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * A profile name made from a company's name ("Loja São João" -> "loja-sao-joao", "company" when
 * nothing is left), for the new profile that login and `serve company add` suggest. Always a PROFILE_NAME.
 */
export function profileSlug(companyName: string): string {
  const words = companyName.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.join('-').slice(0, 40).replace(/-+$/, '') || 'company';
}
