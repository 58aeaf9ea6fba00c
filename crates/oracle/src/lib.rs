//! Independent reference for both protocols: its own SHA-256 (FIPS 180-4), hex-text framing, digit-by-digit reduction. Shares no code with production.
