/*
 * A D program of comments only
 */
