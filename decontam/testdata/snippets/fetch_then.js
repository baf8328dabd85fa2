fetch("https://jokes-hub.p.rapidapi.com/random?category=dev", {
	"method": "GET",
	"headers": {
		"x-rapidapi-host": "jokes-hub.p.rapidapi.com",
		"x-rapidapi-key": "SIGN-UP-FOR-KEY"
	}
})
.then(response => {
	console.log(response);
})
.catch(err => {
	console.error(err);
});
