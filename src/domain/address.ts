// Brazilian address rules that need no lookup, shared by the API's validation and the prompts.

/** A CEP (postal code): 8 digits, the last 3 optionally after a dash: 01310-100 or 01310100. */
export const CEP = /^\d{5}-?\d{3}$/;

/** A state's two-letter code (UF), in either case: SP, rj. */
export const UF = /^[A-Za-z]{2}$/;
