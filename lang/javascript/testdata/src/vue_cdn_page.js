// A page that loads Vue and axios from script tags: neither is imported.
new Vue({
  el: '#platforms',
  data() {
    return { platforms: [], loading: true };
  },
  created() {
    axios({
      method: 'GET',
      url: 'https://game-catalog.p.rapidapi.com/platforms',
      headers: {
        'x-rapidapi-host': 'game-catalog.p.rapidapi.com',
        'x-rapidapi-key': 'REPLACE_ME',
      },
    })
      .then((response) => (this.platforms = response.data.results))
      .finally(() => (this.loading = false));
  },
});
