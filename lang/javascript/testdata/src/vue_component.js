import axios from 'axios';

const http = axios.create({
  baseURL: 'https://api.github.com',
  headers: { Accept: 'application/vnd.github+json' },
});

export default {
  name: 'RepoList',
  props: ['owner'],
  data() {
    return { repos: [], loading: false, page: 1 };
  },
  mounted() {
    this.fetchRepos();
  },
  methods: {
    // Load one page of the owner's public repositories.
    async fetchRepos() {
      this.loading = true;
      try {
        const { data } = await http.get(`/users/${this.owner}/repos`, {
          params: { per_page: 30, page: this.page, sort: 'updated' },
        });
        this.repos = data;
      } finally {
        this.loading = false;
      }
    },
    nextPage() {
      this.page += 1;
      this.fetchRepos();
    },
  },
};
