// gojson.go: a typical Go program for the pair corpus (bench/corpus/list),
// built for wasip1 by bench/corpus/setup.sh with Debian's Go: records in
// structs and maps, encoding/json both ways, sorting, strings and fmt,
// garbage collection. Fixed work, no clock, no randomness, no input.
package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
)

type Item struct {
	Name  string            `json:"name"`
	Qty   int               `json:"qty"`
	Price float64           `json:"price"`
	Tags  []string          `json:"tags"`
	Attrs map[string]string `json:"attrs"`
}

type Order struct {
	ID       int    `json:"id"`
	Customer string `json:"customer"`
	Items    []Item `json:"items"`
}

func main() {
	x := uint32(2024)
	next := func(n uint32) uint32 { x = x*1103515245 + 12345; return (x >> 8) % n }
	names := []string{"bolt", "nut", "gear", "shaft", "spring", "valve", "pump", "seal"}
	total := 0.0
	h := fnv.New64a()
	byCustomer := map[string]int{}
	for round := 0; round < 2; round++ {
		orders := make([]Order, 0, 1200)
		for i := 0; i < 1200; i++ {
			o := Order{ID: round*10000 + i, Customer: fmt.Sprintf("cust-%03d", next(400))}
			for k := uint32(0); k < 1+next(5); k++ {
				it := Item{
					Name:  names[next(uint32(len(names)))] + "-" + fmt.Sprint(next(50)),
					Qty:   int(1 + next(20)),
					Price: float64(next(100000)) / 100,
					Attrs: map[string]string{"color": names[next(8)], "size": fmt.Sprint(next(10))},
				}
				for t := uint32(0); t < next(4); t++ {
					it.Tags = append(it.Tags, strings.ToUpper(names[next(8)]))
				}
				o.Items = append(o.Items, it)
			}
			orders = append(orders, o)
		}
		blob, err := json.Marshal(orders)
		if err != nil {
			panic(err)
		}
		h.Write(blob)
		var back []Order
		if err := json.Unmarshal(blob, &back); err != nil {
			panic(err)
		}
		sort.Slice(back, func(i, j int) bool {
			if back[i].Customer != back[j].Customer {
				return back[i].Customer < back[j].Customer
			}
			return back[i].ID < back[j].ID
		})
		for _, o := range back {
			for _, it := range o.Items {
				total += float64(it.Qty) * it.Price
				byCustomer[o.Customer] += it.Qty
			}
		}
		fmt.Printf("round %d: %d bytes of json, first %s/%d, last %s/%d\n", round, len(blob),
			back[0].Customer, back[0].ID, back[len(back)-1].Customer, back[len(back)-1].ID)
	}
	keys := make([]string, 0, len(byCustomer))
	for k := range byCustomer {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys[:5] {
		fmt.Fprintf(&sb, "%s=%d ", k, byCustomer[k])
	}
	fmt.Printf("customers %d, total %.2f, fnv %016x\n%s\n", len(keys), total, h.Sum64(), strings.TrimSpace(sb.String()))
}
