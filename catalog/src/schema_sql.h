// SQL shared by the schema's creation and its migrations (private to the catalog library).
#pragma once

namespace cp::catalog::detail {

inline constexpr const char* kCurrentPricesView = R"sql(
-- Current prices: the newest row per (type, region, zone, kind). A region-wide spot row (the
-- seed's min/max over unnamed zones) gives way once per-zone spot prices exist for that region.
CREATE VIEW current_prices AS
SELECT p.* FROM prices p
WHERE p.as_of = (SELECT max(q.as_of) FROM prices q
                 WHERE q.instance_type = p.instance_type AND q.region = p.region
                   AND q.kind = p.kind AND q.zone = p.zone)
  AND NOT (p.kind = 'spot' AND p.zone = ''
           AND EXISTS (SELECT 1 FROM prices z
                       WHERE z.instance_type = p.instance_type AND z.region = p.region
                         AND z.kind = 'spot' AND z.zone <> ''));
)sql";

} // namespace cp::catalog::detail
