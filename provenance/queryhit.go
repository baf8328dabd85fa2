package provenance

import (
	"sort"

	"sccg/store"
)

// QueryHit is the search that found a sample's file for the sample's own API: the
// strictest layer among the file's hits for apiID (ties by query text), else the
// file's strongest hit over all APIs. A file found for several APIs must not claim
// the layer of another API's query.
func QueryHit(f *store.File, hits []store.FileHit, apiID int64) (layer, query string) {
	var own []store.FileHit
	for _, h := range hits {
		if apiID != 0 && h.APIID == apiID {
			own = append(own, h)
		}
	}
	if len(own) == 0 {
		return f.QueryLayer, f.Query
	}
	sort.Slice(own, func(i, j int) bool {
		ri, rj := store.LayerRank(own[i].QueryLayer), store.LayerRank(own[j].QueryLayer)
		if ri != rj {
			return ri < rj
		}
		return own[i].Query < own[j].Query
	})
	return own[0].QueryLayer, own[0].Query
}
