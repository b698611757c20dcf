// The hand-written JavaScript equivalent of bench/documents.ts DOC_MAPPING (keep the two in step).
export function mapDocument(d) {
  const s = d.score;
  return {
    id: d.id,
    name: d.user.name.toUpperCase(),
    email: d.user.email.toLowerCase().trim(),
    age_months: d.user.age * 12,
    total: d.price * d.qty,
    city: d.user.address.city,
    country: d.user.address.country ?? 'unknown',
    tags: d.tags.join(','),
    tier: s >= 90 ? 'gold' : s >= 50 ? 'silver' : 'bronze',
    active: d.status === 'active',
  };
}
