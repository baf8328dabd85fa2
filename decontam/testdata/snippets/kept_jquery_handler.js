$('#search').on('submit', function (e) {
  e.preventDefault();
  $.ajax({
    url: 'https://movie-db-lite.p.rapidapi.com/search',
    data: {title: $('#q').val()},
    headers: {'x-rapidapi-host': 'movie-db-lite.p.rapidapi.com', 'x-rapidapi-key': RAPID_KEY},
    success: function (movies) { renderMovies(movies.results); }
  });
});
