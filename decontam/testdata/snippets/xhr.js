const data = null;

const xhr = new XMLHttpRequest();
xhr.withCredentials = true;

xhr.addEventListener('readystatechange', function () {
	if (this.readyState === this.DONE) {
		console.log(this.responseText);
	}
});

xhr.open('GET', 'https://movie-db-lite.p.rapidapi.com/search?title=Alien');
xhr.setRequestHeader('x-rapidapi-key', 'SIGN-UP-FOR-KEY');
xhr.setRequestHeader('x-rapidapi-host', 'movie-db-lite.p.rapidapi.com');

xhr.send(data);
