export type BlogEntry = {
  slug: string
  question: string
  paragraphs: string[]
}

/** Four questions people ask when they start building for the web, answered in plain words. */
export const BLOG_ENTRIES: readonly BlogEntry[] = [
  {
    slug: 'sql-vs-nosql',
    question: 'What is the difference between SQL and NoSQL databases?',
    paragraphs: [
      'A SQL (relational) database stores data in tables with a fixed set of columns, and every row follows that shape. Tables point at each other through keys: an order row holds the id of the customer who placed it. You ask questions in SQL, a declarative language where you describe the result you want ("every order over $500 from last month, with the customer name") and the database works out how to fetch it, joining tables as needed. PostgreSQL, MySQL, SQLite and SQL Server are the well-known examples.',
      '"NoSQL" is a loose name for databases that do not use the relational table model. Document stores such as MongoDB keep self-contained JSON-like documents; key-value stores such as Redis map a key to a value very quickly; wide-column stores such as Cassandra spread huge tables across many machines; graph databases such as Neo4j store nodes and the relationships between them. Each is shaped around one access pattern and tends to be very good at it.',
      'The practical differences come down to structure, consistency and scaling. Relational databases enforce a schema and offer transactions that are all-or-nothing (ACID), which is what you want for money, stock and bookings: two buyers must never both pay for the same laptop. Many NoSQL systems let every record have its own shape and were built to spread across many servers, sometimes accepting that a read may briefly see slightly old data in exchange for availability and write speed.',
      'Neither family is better in general. A relational database is a safe default for most applications because data usually has relationships and rules, and modern relational databases also store JSON when a part of the data is loosely shaped. Reach for a NoSQL store when its model matches the problem directly: a cache or rate-limit counter in a key-value store, an event log written at enormous volume, or a social graph queried by relationships.',
    ],
  },
  {
    slug: 'what-is-jwt',
    question: 'What is JWT and how does it work?',
    paragraphs: [
      'JWT stands for JSON Web Token: a compact, URL-safe string that carries a small set of facts (called claims) about a user or a session, together with a signature that proves who issued it. It looks like three base64url-encoded parts joined by dots: header.payload.signature.',
      'The header names the signing algorithm, for example HS256 (an HMAC with a shared secret) or RS256/ES256 (a private key whose public half anyone can use to check). The payload holds the claims: who the token is about (sub), who issued it (iss), who it is meant for (aud), when it expires (exp), plus whatever the application needs, such as a role. The signature is computed over the header and payload, so changing a single character of either makes the token invalid.',
      'In a typical flow the user signs in, the server checks the password and returns a short-lived token. The client then sends it with each request, usually in the header "Authorization: Bearer <token>". The server verifies the signature and the expiry, and can trust the claims without looking anything up in a database, which is why JWTs are popular between services.',
      'Two things are easy to get wrong. First, the payload is only encoded, not encrypted: anyone holding the token can read it, so never put secrets in it. Second, a token stays valid until it expires, even after the user signs out, so keep lifetimes short and store tokens carefully: a token kept in localStorage can be read by any script injected into the page, which is why many web apps keep the session in an httpOnly cookie instead and hand out short-lived tokens only where an API client really needs one.',
    ],
  },
  {
    slug: 'javascript-vs-nodejs',
    question: 'What are the differences between JavaScript and Node.js?',
    paragraphs: [
      'JavaScript is a programming language. Its rules (syntax, types, functions, classes, promises) are defined by the ECMAScript standard, and on its own the language has no way to read a file, open a network connection or draw on the screen. Those abilities come from the environment that runs it.',
      'Node.js is one such environment: a runtime that takes the V8 JavaScript engine from Chrome and runs it outside the browser, adding its own libraries for files, processes, networking, streams and cryptography. With Node.js, JavaScript can run web servers, command-line tools and build scripts.',
      'The browser is another environment with a different set of extras. There, JavaScript gets the DOM to change the page, fetch to call APIs, and storage such as localStorage, but no direct access to your files, for safety. In Node.js there is no document or window, but there is fs, http and process. Modern versions of both share more than they used to (fetch, URL, web streams and ES modules work in each), yet code that touches the page only runs in the browser and code that touches the file system only runs on the server.',
      'So the short answer: JavaScript is the language, Node.js is a program that runs it on servers and desktops. Learning JavaScript well pays off in both places; learning Node.js means learning its runtime libraries, its package ecosystem (npm) and how it handles many tasks at once.',
    ],
  },
  {
    slug: 'nodejs-many-requests',
    question: 'How does Node.js handle many requests at the same time?',
    paragraphs: [
      'Node.js runs your JavaScript on a single main thread, yet one process can serve thousands of connections at once. The trick is that most of a web request is waiting: for the database to answer, for a file to be read, for another service to respond. Node.js never sits and waits for those. It starts the operation, registers what to do when it finishes, and moves on to the next piece of work.',
      "That bookkeeping is the event loop, provided by the libuv library. Network sockets are watched with the operating system's own efficient mechanisms (epoll on Linux, kqueue on macOS, IOCP on Windows), and work that cannot be done without blocking, such as some file system calls, DNS lookups and compression, is handed to a small pool of background threads. When a result is ready, its callback (or the continuation of an async function after await) is queued, and the event loop runs it on the main thread.",
      'This model is fast and light for input/output-heavy work such as APIs, chat and proxies, because there is no thread per connection to create, schedule and feed with memory. Its weakness is long CPU-bound work: while a request spends 200 ms resizing an image or parsing a huge JSON file in JavaScript, every other request waits. Such work belongs in worker threads, a separate job queue, or native code that runs off the main thread.',
      'To use all the cores of a machine, you run several Node.js processes (with the cluster module, a process manager, or several containers) behind a load balancer. Each process keeps its own event loop, so shared state such as sessions or rate limits lives in a database or a store like Redis rather than in the memory of one process.',
    ],
  },
]
