package sandbox

import (
	"context"
	"testing"
	"time"
)

// TestReach: code that needs what a real run would give it reaches its request, one
// case per strategy of the harness, in both modes.
func TestReach(t *testing.T) {
	for _, warm := range []bool{false, true} {
		t.Run(mode(warm), func(t *testing.T) { testReach(t, warm) })
	}
}

func testReach(t *testing.T, warm bool) {
	r := newTestRunner(t, Limits{Timeout: 10 * time.Second}, warm)
	tests := []struct {
		name, code, fn string
		want           string // the URL of the last captured request
	}{
		{"environment placeholders", "import os, requests\ndef f():\n    key = os.getenv('RAPIDAPI_KEY', default=None)\n    n = int(os.environ['MAX_RESULTS'])\n    env = os.environ.copy()\n    return requests.get('https://env.p.rapidapi.com/q/' + key + '/' + str(n) + env['TOKEN'][:0])\n",
			"f", "https://env.p.rapidapi.com/q/test-value/1"},
		{"argument containing what it is tested for", "import requests\ndef download(link):\n    if 'instagram.com' not in link:\n        raise ValueError('not an instagram link')\n    return requests.get('https://ig.p.rapidapi.com/media', params={'url': link})\n",
			"download", "https://ig.p.rapidapi.com/media"},
		{"argument equal to what it is compared with", "import requests\ndef media(url, kind):\n    if kind not in ('audio', 'video'):\n        raise ValueError(kind)\n    return requests.get('https://yt.p.rapidapi.com/' + kind, params={'u': url})\n",
			"media", "https://yt.p.rapidapi.com/audio"},
		{"elements of an iterable argument", "import requests\ndef all_media(links):\n    for link in links:\n        if link.startswith('https://youtu.be/'):\n            requests.get('https://yt.p.rapidapi.com/dl/' + link[17:])\n",
			"all_media", "https://yt.p.rapidapi.com/dl/test"},
		{"a permissive element", "import requests\ndef details(items):\n    for item in items:\n        requests.get('https://d.p.rapidapi.com/item/' + item['id'])\n",
			"details", "https://d.p.rapidapi.com/item/stub"},
		{"an empty default", "import requests\ndef tags(names=[]):\n    for n in names:\n        requests.get('https://t.p.rapidapi.com/tag/' + n)\n",
			"tags", "https://t.p.rapidapi.com/tag/test"},
		{"unpacking a stub", "import requests\ndef weather(city):\n    pack = geocode(city)\n    if pack != None:\n        lat, lon = pack\n        return requests.get('https://w.p.rapidapi.com/point', params={'lat': lat, 'lon': lon})\n",
			"weather", "https://w.p.rapidapi.com/point"},
		{"a global joined to a string is a string", "import requests\ndef f():\n    return requests.get('https://s.p.rapidapi.com/v1/' + RESOURCE + '/list')\n",
			"f", "https://s.p.rapidapi.com/v1/test/list"},
		{"input answers that take each branch", "import requests\ndef menu():\n    while True:\n        choice = input('1) search 2) details q) quit: ').strip()\n        if choice == 'q':\n            break\n        if choice == '2':\n            requests.get('https://m.p.rapidapi.com/details')\n",
			"menu", "https://m.p.rapidapi.com/details"},
		{"input at module level", "import requests\nif input('Send it? [y/n] ').lower() in ('y', 'yes'):\n    requests.post('https://ask.p.rapidapi.com/send')\n",
			"", "https://ask.p.rapidapi.com/send"},
		{"a missing JSON payload file", "import json, requests\ndef summarize():\n    with open('payload.json') as f:\n        payload = json.load(f)\n    payload['text'] = open('Data/input.txt').read()\n    return requests.post('https://sum.p.rapidapi.com/v1/summarize', json=payload)\n",
			"summarize", "https://sum.p.rapidapi.com/v1/summarize"},
		{"a name error in a class body", "import requests\nclass Api:\n    fields: List[str] = []\n    icon = favicon_path\n    def call(self):\n        return requests.get('https://c.p.rapidapi.com/v2/call')\n",
			"call", "https://c.p.rapidapi.com/v2/call"},
		{"a method without its class", "import requests\ndef convert(self, text: str):\n    text = self.remove_urls(text)\n    return requests.post('https://b.p.rapidapi.com/convert', data='content=' + urllib.parse.quote(text))\n",
			"convert", "https://b.p.rapidapi.com/convert"},
		{"a session the code did not include", "def info(session_id):\n    resp = session.get(url='https://api.p.rapidapi.com/sessions/%s' % session_id)\n    return resp.json()\n",
			"info", "https://api.p.rapidapi.com/sessions/1"},
		{"awaiting a stub", "import requests\nasync def on_message(client, message):\n    status = await message.reply_text('working')\n    status_id = status.id\n    r = requests.get('https://tt.p.rapidapi.com/vid/index', params={'url': message.text})\n    await status.edit_text(r.json()['title'])\n",
			"on_message", "https://tt.p.rapidapi.com/vid/index"},
		{"empty stubs: a cache miss", "import requests\ndef price(symbol):\n    hit = cache.get(symbol)\n    if hit:\n        return hit\n    return requests.get('https://p.p.rapidapi.com/price/' + symbol).json()\n",
			"price", "https://p.p.rapidapi.com/price/test"},
		{"stubs with several items", "import requests\nasync def bin_cmd(client, message):\n    if len(message.command) < 2:\n        return await message.reply_text('give me a bin')\n    return requests.get('https://bin.p.rapidapi.com/', params={'bin': message.command[1]})\n",
			"bin_cmd", "https://bin.p.rapidapi.com/"},
		{"a dummy taking its use: range()", "import requests\ndef scrape(query, pages):\n    for p in range(pages):\n        requests.get('https://s.p.rapidapi.com/search', params={'q': query, 'page': p + 1})\n",
			"scrape", "https://s.p.rapidapi.com/search"},
		{"a dummy taking its use: arithmetic", "import requests\ndef window(start):\n    end = start + 10\n    return requests.get('https://s.p.rapidapi.com/range/%d/%d' % (start, end))\n",
			"window", "https://s.p.rapidapi.com/range/1/11"},
		{"a dummy taking its use: a dict", "import requests\ndef send(mapping):\n    for k, v in mapping.items():\n        requests.get('https://m.p.rapidapi.com/set/' + k)\n",
			"send", "https://m.p.rapidapi.com/set/test"},
		{"a Django request's query", "import requests\nfrom django.shortcuts import render\ndef search(request):\n    if 'q' not in request.GET:\n        return render(request, 'form.html')\n    return requests.get('https://s.p.rapidapi.com/find/' + request.GET['q'])\n",
			"search", "https://s.p.rapidapi.com/find/test"},
		{"a helper's result is None on a cache miss", "import requests\ndef weather(city):\n    cached = check_location_cache(city)\n    if cached is not None:\n        return cached\n    return requests.get('https://w.p.rapidapi.com/now/' + city)\n",
			"weather", "https://w.p.rapidapi.com/now/London"},
		{"a stub equals None on a cache miss", "import requests\ndef weather(city):\n    if redis_cache.get(city) == None:\n        return requests.get('https://w.p.rapidapi.com/now/' + city)\n",
			"weather", "https://w.p.rapidapi.com/now/London"},
		{"an undefined global taking its use", "import requests\ndef pages(q):\n    for i in range(MAX_PAGES):\n        requests.get(BASE_URL.rstrip('/') + '/x', params={'i': i})\n        requests.get('https://p.p.rapidapi.com/page/%d' % (i + 1))\n",
			"pages", "https://p.p.rapidapi.com/page/1"},
		{"an undefined global as a path", "import requests\ndef icon():\n    if not os.path.isfile(os.path.join(favicon_path, '')[:-1]):\n        return None\n    return requests.post('https://i.p.rapidapi.com/upload', files={'f': open(favicon_path, 'rb')})\n",
			"icon", "https://i.p.rapidapi.com/upload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Run(context.Background(), tt.code, tt.fn)
			if err != nil {
				t.Fatal(err)
			}
			n := len(res.Requests)
			if n == 0 || res.Requests[n-1].URL != tt.want {
				t.Errorf("%s %s: requests %+v; want the last to be %s; stderr %s", res.Status, res.Reason, res.Requests, tt.want, res.Stderr)
			}
		})
	}
}
