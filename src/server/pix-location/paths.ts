/** The path of the pix locations on the server: `/qr/v2/<txid>`, and the JWKS at `/qr/v2/jwks.json`. */
export const LOCATION_PATH = '/qr/v2';
