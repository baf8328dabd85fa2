window.onload = () => {
  const searchBox = document.getElementById("search");
  const results = document.getElementById("results");
  const apiOptions = {
    method: "GET",
    headers: {
      "X-RapidAPI-Key": "REPLACE_WITH_KEY",
      "X-RapidAPI-Host": "recipe-finder.p.rapidapi.com",
    },
  };
  let lastQuery = "";

  function clearResults() {
    while (results.firstChild) {
      results.removeChild(results.firstChild);
    }
  }

  // Search recipes by the text in the box.
  searchBox.onchange = () => {
    clearResults();
    lastQuery = searchBox.value;
    fetch(`https://recipe-finder.p.rapidapi.com/recipes/search?q=${lastQuery}`, apiOptions)
      .then((r) => r.json())
      .then((data) => {
        for (const recipe of data.results) {
          const li = document.createElement("li");
          li.textContent = recipe.title;
          results.appendChild(li);
        }
      });
  };
};
